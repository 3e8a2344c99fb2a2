// C39: the lists the spam features look up, read in Node (the bench, the tests, the asset build):
// disposable e-mail domains (disposable-email-domains-js, CC0) and URL shorteners
// (data/url-shorteners.txt, from PeterDaveHello/url-shorteners, CC BY-SA 4.0).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposableEmailBlocklist } from 'disposable-email-domains-js';
import type { Lists } from '../src/spam/features.ts';

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
