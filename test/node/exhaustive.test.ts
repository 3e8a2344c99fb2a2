// Every switch over delivery kinds (or a channel's family) is exhaustive: a kind added to the
// channels' map and left out of a switch is a compile error, not a silent fall through. Proved here
// by the type checker itself, on a probe written beside the sources: the switch over every kind
// compiles; the same switch missing one kind does not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNEL_KINDS } from '../../src/delivery/channels/index.ts';

const ROOT = join(import.meta.dirname, '../..');
const probes = mkdtempSync(join(ROOT, 'test/node/.exhaustive-'));
afterAll(() => rmSync(probes, { recursive: true, force: true }));

/** A switch over the kinds given, ending `kind satisfies never`, type-checked as the worker's code is. */
function check(kinds: readonly string[]): { status: number | null; output: string } {
  const cases = kinds.map((kind) => `    case ${JSON.stringify(kind)}:\n      return 1;`).join('\n');
  writeFileSync(
    join(probes, 'probe.ts'),
    `import type { ChannelKind } from '../../../src/delivery/channels/index.ts';
export function weight(kind: ChannelKind): number {
  switch (kind) {
${cases}
    default:
      return kind satisfies never;
  }
}
`,
  );
  writeFileSync(
    join(probes, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.json',
      include: ['probe.ts', '../../../worker-configuration.d.ts', '../../../src/secrets.d.ts'],
      exclude: [],
    }),
  );
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(probes, 'tsconfig.json')], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('exhaustive switches over delivery kinds', () => {
  it('a switch naming every kind of the map compiles', () => {
    const { status, output } = check(CHANNEL_KINDS);
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 120_000);

  it('the same switch missing one kind is a compile error that names it', () => {
    const left = CHANNEL_KINDS.at(-1) ?? '';
    const { status, output } = check(CHANNEL_KINDS.slice(0, -1));
    expect(status).not.toBe(0);
    expect(output).toContain('probe.ts');
    expect(output).toContain(`"${left}"`);
    expect(output).toContain("type 'never'");
  }, 120_000);
});
