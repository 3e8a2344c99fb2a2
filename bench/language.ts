// C39: the language signal measured on the form corpus (data/form-corpus/, 440 lines in 16
// languages): the asset's size, how often the detector's best guess is the line's language, and the
// rule (src/spam/language.ts) at its thresholds and others: each line checked against its own
// language (a flag is a false one), and against `en` and against `de` when it is in neither (a
// flag is a catch). `npm exec -- node bench/language.ts`.

import { gzipSync } from 'node:zlib';
import { languageModels } from '../scripts/build-assets.ts';
import {
  detectorOf,
  languageMismatch,
  MARGIN,
  MIN_LETTERS,
  MIN_SCRIPT_LETTERS,
  type Tuning,
} from '../src/spam/language.ts';
import { loadFormCorpus } from '../toolkit/form-corpus.ts';

const asset = languageModels();
const detector = detectorOf(JSON.parse(asset));
const lines = loadFormCorpus().map((l) => ({ ...l, text: l.values.message ?? '' }));
const FOREIGN = ['en', 'de'];

console.log(
  `assets/spam/languages.json: ${(Buffer.byteLength(asset) / 1024).toFixed(0)} KB, ${(gzipSync(asset, { level: 9 }).length / 1024).toFixed(0)} KB gzip; ${lines.length} lines, ${new Set(lines.map((l) => l.lang)).size} languages`,
);

// The best guess alone: the rule with no margin and no length asked, against the line's language.
const loose: Tuning = { minLetters: 0, minScriptLetters: 0, margin: 1.01 };
const started = performance.now();
const right = lines.filter((l) => languageMismatch(detector, l.text, [l.lang], loose) === undefined).length;
const each = (performance.now() - started) / lines.length;
console.log(
  `best guess right: ${right}/${lines.length} (${((100 * right) / lines.length).toFixed(1)}%), ${each.toFixed(2)} ms a line`,
);

function measure(tuning: Tuning) {
  const own = lines.filter((l) => languageMismatch(detector, l.text, [l.lang], tuning) !== undefined);
  let checked = 0;
  let caught = 0;
  for (const l of lines)
    for (const expected of FOREIGN)
      if (expected !== l.lang) {
        checked++;
        if (languageMismatch(detector, l.text, [expected], tuning) !== undefined) caught++;
      }
  return { own, checked, caught };
}

const rule: Tuning = { minLetters: MIN_LETTERS, minScriptLetters: MIN_SCRIPT_LETTERS, margin: MARGIN };
const atRule = measure(rule);
console.log(
  `the rule (${MIN_LETTERS} letters, ${MIN_SCRIPT_LETTERS} in another script, margin ${MARGIN}): own-language lines flagged ${atRule.own.length}/${lines.length} (genuine ${atRule.own.filter((l) => !l.spam).length}); foreign-language lines caught ${atRule.caught}/${atRule.checked} (each line against ${FOREIGN.join(' and against ')}, when not its own)`,
);
for (const l of atRule.own)
  console.log(
    `  ${l.id} (${l.lang}, ${l.spam ? 'spam' : 'genuine'}) read as ${languageMismatch(detector, l.text, [l.lang])}: ${JSON.stringify(l.text.slice(0, 70))}…`,
  );
console.log('other thresholds:');
for (const minLetters of [30, 40, 50])
  for (const margin of [0.9, 0.93, 0.95, 0.97, 1.01]) {
    const m = measure({ ...rule, minLetters, margin });
    console.log(
      `  ${minLetters} letters, margin ${margin > 1 ? 'none (the best guess alone)' : margin}: own flagged ${m.own.length}/${lines.length} (genuine ${m.own.filter((l) => !l.spam).length}), foreign caught ${m.caught}/${m.checked}`,
    );
  }
