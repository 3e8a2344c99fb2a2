// C39: the form corpus the spam filter learns the form world from (data/form-corpus/): enough of
// it, both labels, eight languages and more, the genres of form spam and of genuine visitors, a
// fixed held-out share, and nothing real in it (every address and link fictional).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formTraining } from '../../scripts/spam-prior.ts';
import { loadFormCorpus } from '../../toolkit/form-corpus.ts';

type Line = {
  id: string;
  label: 'spam' | 'ham';
  lang: string;
  genre: string;
  split: 'train' | 'heldout';
  fields: Record<string, string>;
};

const DIR = join(import.meta.dirname, '../../data/form-corpus');
const read = (file: string) =>
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
const lines = [...read('spam.jsonl'), ...read('genuine.jsonl')];
const count = <T>(items: T[]) => items.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>());

/** Reserved names only: nothing in the corpus is anybody's real address or site. */
const FICTIONAL = /(\.example|\.test|\.invalid|(^|\.)example\.(com|net|org))$/i;
const SHORTENERS = new Set(['bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'cutt.ly', 'rb.gy']);

describe('C39: the form corpus', () => {
  it('holds at least 400 messages, both labels, each line well formed, ids unique', () => {
    expect(lines.length).toBeGreaterThanOrEqual(400);
    const labels = count(lines.map((l) => l.label));
    expect(labels.get('spam') ?? 0).toBeGreaterThanOrEqual(150);
    expect(labels.get('ham') ?? 0).toBeGreaterThanOrEqual(150);
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    for (const l of lines) {
      expect(Object.keys(l), l.id).toEqual(['id', 'label', 'lang', 'genre', 'split', 'fields']);
      expect(l.lang, l.id).toMatch(/^[a-z]{2}$/);
      expect(typeof l.fields.message, l.id).toBe('string');
      expect(l.fields.message?.trim(), l.id).not.toBe('');
      expect(Object.values(l.fields).every((v) => typeof v === 'string')).toBe(true);
    }
  });

  it('speaks at least eight languages, on both sides', () => {
    for (const label of ['spam', 'ham'] as const) {
      const langs = new Set(lines.filter((l) => l.label === label).map((l) => l.lang));
      expect(langs.size, label).toBeGreaterThanOrEqual(8);
    }
  });

  it('has the genres of form spam and of genuine visitors', () => {
    const genres = (label: string) => new Set(lines.filter((l) => l.label === label).map((l) => l.genre));
    for (const g of ['seo', 'site-errors', 'phishing', 'fake-customer', 'foreign-seo', 'link-only']) {
      expect(genres('spam')).toContain(g);
    }
    for (const g of ['order', 'quote', 'wholesale', 'booking', 'job', 'complaint', 'one-line']) {
      expect(genres('ham')).toContain(g);
    }
  });

  it('keeps a fixed held-out share: every id whose number is divisible by four, a quarter of each label', () => {
    for (const l of lines) {
      const n = Number(l.id.slice(1));
      expect(l.split, l.id).toBe(n % 4 === 0 ? 'heldout' : 'train');
    }
    for (const label of ['spam', 'ham'] as const) {
      const mine = lines.filter((l) => l.label === label);
      const held = mine.filter((l) => l.split === 'heldout').length;
      expect(held / mine.length).toBeGreaterThan(0.2);
      expect(held / mine.length).toBeLessThan(0.3);
    }
  });

  it('nothing learns from the held-out share: the prior is built from the training lines alone', () => {
    const corpus = loadFormCorpus();
    const learnt = formTraining(corpus);
    expect(learnt.length).toBe(lines.filter((l) => l.split === 'train').length);
    expect(learnt.filter((s) => s.heldOut)).toEqual([]);
    expect(new Set(learnt.map((s) => s.id))).toEqual(
      new Set(lines.filter((l) => l.split === 'train').map((l) => l.id)),
    );
  });

  it('names no real address, site or domain', () => {
    const found: string[] = [];
    for (const l of lines) {
      const text = Object.values(l.fields).join(' ');
      for (const [, domain = ''] of text.matchAll(/[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g)) {
        if (!FICTIONAL.test(domain)) found.push(`${l.id}: ${domain}`);
      }
      for (const [, host = ''] of text.matchAll(/https?:\/\/([^/\s"'<>\]()[,;?#]+)/gi)) {
        const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.+$/, '');
        if (!FICTIONAL.test(name) && !SHORTENERS.has(name)) found.push(`${l.id}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });
});
