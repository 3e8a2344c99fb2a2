// What every command group of `forms` is given: the database named by the global options, who is
// asking (the tool, for the audit log), and the one way output is printed (C19).
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { safeJson, safeText, shown } from '../../src/lib/printable.ts';
import type { Manager } from '../../src/manage/context.ts';
import { type Database, openDatabase, type Target } from '../database.ts';
import { readSecret, type SecretSource } from './secret.ts';

export type Io = { stdout: Writable; stderr: Writable } & Partial<{
  stdin: SecretSource['stdin'];
  env: Record<string, string | undefined>;
}>;
export type Global = { remote?: boolean; local?: boolean; json?: boolean; persistTo?: string };
export type Open = (target: Target) => Promise<Database>;

/** Bad use of the tool itself (options that exclude each other): one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const line = (stream: Writable, text: string) => stream.write(`${text}\n`);

/** Columns padded to their widest cell; each cell one line, its control characters escaped (C19). */
export function table(cells: string[][]): string {
  const rows = cells.map((r) => r.map(shown));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `--field a --field b`: every value of a repeated option. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

export type Context = {
  io: Io;
  /** Opens the database named by the global options, runs the action with it, and closes it. */
  withManager: <A extends unknown[]>(
    action: (m: Manager, global: Global, ...args: A) => Promise<void>,
  ) => (...args: A) => Promise<void>;
  /** C19: `--json` prints one JSON document; otherwise the text. No control character from outside either way. */
  print: (global: Global, json: unknown, text: () => string) => void;
  /** A secret from its environment variable or standard input, never from an argument (C19). */
  secret: (variable: string, what: string) => Promise<string>;
};

export function context(io: Io, openDb: Open = openDatabase): Context {
  const source: SecretSource = {
    stdin: io.stdin ?? process.stdin,
    stderr: io.stderr,
    env: io.env ?? process.env,
  };
  return {
    io,
    withManager:
      (action) =>
      async (...args) => {
        const command = args.at(-1) as Command;
        const global = command.optsWithGlobals() as Global;
        const database = await openDb({ remote: global.remote === true, persistTo: global.persistTo });
        try {
          await action({ db: database.db, actor: { kind: 'tool' } }, global, ...args);
        } finally {
          await database.close();
        }
      },
    print: (global, json, text) =>
      global.json ? line(io.stdout, safeJson(JSON.stringify(json))) : line(io.stdout, safeText(text())),
    secret: (variable, what) => readSecret(source, variable, what),
  };
}
