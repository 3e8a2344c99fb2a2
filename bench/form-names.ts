// `npm run bench:form`: the cost of converting an HTML form's entries (C29) as the names repeat.
// A body of N distinct names, against one of the same names each sent twice (every second one a
// duplicate, the worst case for the duplicate check), at 64 KiB (MAX_BODY_BYTES' default) and at
// 1 MiB (its ceiling). Prints the median milliseconds of one conversion, and the ratio of the
// duplicated body to the unique one: a linear check keeps it near 1. Settings: BENCH_REPETITIONS (7).
import { performance } from 'node:perf_hooks';
import { convertForm, type FormEntry } from '../src/api/html-form/convert.ts';
import { median } from './harness.ts';

const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 7);

/** Entries whose urlencoded body is about `bytes` long: `nNNNNNN=v&` is 10 bytes an entry. */
function entries(bytes: number, duplicated: boolean): FormEntry[] {
  const count = Math.floor(bytes / 10);
  return Array.from({ length: count }, (_, i) => ({
    name: `n${String(duplicated ? i >> 1 : i).padStart(6, '0')}`,
    value: 'v',
  }));
}

async function time(list: FormEntry[]): Promise<number> {
  const runs: number[] = [];
  for (let r = 0; r < REPETITIONS; r++) {
    const started = performance.now();
    await convertForm(list, []);
    runs.push(performance.now() - started);
  }
  return median(runs);
}

console.log('body     entries  unique ms  duplicated ms  ratio');
for (const [label, bytes] of [
  ['64 KiB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
] as const) {
  const unique = await time(entries(bytes, false));
  const duplicated = await time(entries(bytes, true));
  console.log(
    `${label.padEnd(8)} ${String(Math.floor(bytes / 10)).padStart(7)}  ${unique.toFixed(2).padStart(9)}  ${duplicated
      .toFixed(2)
      .padStart(13)}  ${(duplicated / unique).toFixed(2).padStart(5)}`,
  );
}
