// C39: what the spam model is made of, read in Node (the bench, the tests, the asset build): the
// committed prior (data/spam-prior.json, made by scripts/spam-prior.ts), and the lists the
// features look up: disposable e-mail domains (disposable-email-domains-js, CC0) and URL
// shorteners (data/url-shorteners.txt, from PeterDaveHello/url-shorteners, CC BY-SA 4.0).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { Lists } from '../src/spam/features.ts';
import type { PriorFile } from '../src/spam/model.ts';

const ROOT = join(import.meta.dirname, '..');

export function shortenerDomains(): string[] {
  return readFileSync(join(ROOT, 'data/url-shorteners.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export function loadLists(): Lists {
  return {
    disposable: new Set(disposableEmailBlocklist().map((d) => d.toLowerCase())),
    shorteners: new Set(shortenerDomains()),
  };
}

export const PRIOR_PATH = join(ROOT, 'data', 'spam-prior.json');

export function readPrior(): PriorFile {
  return JSON.parse(readFileSync(PRIOR_PATH, 'utf8')) as PriorFile;
}
