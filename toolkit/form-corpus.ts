// C39: the form corpus (data/form-corpus/, written for this project) as the prior's training and
// the spam bench read it: each message's fields, its label, and its fixed split (`heldout`: nothing
// learns from it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type FormSample = {
  id: string;
  spam: boolean;
  lang: string;
  genre: string;
  heldOut: boolean;
  values: Record<string, string>;
};

const DIR = join(import.meta.dirname, '..', 'data', 'form-corpus');

export function loadFormCorpus(): FormSample[] {
  return ['spam.jsonl', 'genuine.jsonl'].flatMap((file) =>
    readFileSync(join(DIR, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const l = JSON.parse(line) as {
          id: string;
          label: string;
          lang: string;
          genre: string;
          split: string;
          fields: Record<string, string>;
        };
        return {
          id: l.id,
          spam: l.label === 'spam',
          lang: l.lang,
          genre: l.genre,
          heldOut: l.split === 'heldout',
          values: l.fields,
        };
      }),
  );
}

/** The items in a seeded order: the same on every machine, so that an "order" of marks is repeatable. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
