// What every command group of `forms` is given: the database named by the global options, who is
// asking (the tool, for the audit log), and the one way output is printed (C19).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { safeJson, safeText, shown } from '../src/lib/printable.ts';
import { type Database, openDatabase, type Target } from '../toolkit/database.ts';
import { savedToken } from '../toolkit/deployment.ts';
import { localOps, type Ops, remoteOps } from './ops.ts';
import { readSecret, type SecretSource } from './secret.ts';

export type Io = { stdout: Writable; stderr: Writable } & Partial<{
  stdin: SecretSource['stdin'];
  env: Record<string, string | undefined>;
  /** How `--url` reaches the worker (the tests give their own). */
  fetch: typeof fetch;
}>;
export type Global = { remote?: boolean; local?: boolean; json?: boolean; persistTo?: string; url?: string };

/**
 * C39: the spam filter's model as `npm run build:assets` wrote it (every script that serves the
 * worker runs it), read the way the worker reads its ASSETS binding.
 */
export const BUILT_MODEL = {
  fetch: async () =>
    new Response(await readFile(join(import.meta.dirname, '..', 'assets', 'spam', 'model.json'))),
};

/** C32: where `--url` sends the operator token: https, or plain http on this machine only. */
function workerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--url '${text}' is not a URL: give the worker's address, e.g. https://forms.example.workers.dev`,
    );
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new UsageError(
      `--url must be https:// (plain http only to localhost): the token would cross the network in the clear`,
    );
  }
  return url.origin;
}
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
  /**
   * The operations on what the global options name (the local or remote database, or a worker's
   * management API with `--url`), for the action; a database is closed after it.
   */
  withOps: <A extends unknown[]>(
    action: (ops: Ops, global: Global, ...args: A) => Promise<void>,
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
    withOps:
      (action) =>
      async (...args) => {
        const command = args.at(-1) as Command;
        const global = command.optsWithGlobals() as Global;
        if (global.url !== undefined) {
          if (global.remote || global.local)
            throw new UsageError('--url names a worker: drop --remote and --local');
          const base = workerUrl(global.url);
          // C32: the token is read from the environment, never from an argument; C42: or, for the
          // worker a deploy from this folder made, from where the deploy kept it.
          const given = (io.env ?? process.env).FORMS_ADMIN_TOKEN;
          const token = given === undefined || given === '' ? savedToken(new URL(base).origin) : given;
          if (token === undefined) {
            throw new UsageError('--url needs the operator token (or a secret key) in FORMS_ADMIN_TOKEN');
          }
          await action(remoteOps(base, token, io.fetch), global, ...args);
          return;
        }
        const database = await openDb({ remote: global.remote === true, persistTo: global.persistTo });
        try {
          await action(
            localOps({
              db: database.db,
              places: database.places,
              files: database.files,
              actor: { kind: 'tool' },
              assets: BUILT_MODEL,
            }),
            global,
            ...args,
          );
        } finally {
          await database.close();
        }
      },
    print: (global, json, text) =>
      global.json ? line(io.stdout, safeJson(JSON.stringify(json))) : line(io.stdout, safeText(text())),
    secret: (variable, what) => readSecret(source, variable, what),
  };
}

/**
 * C38: where the tool sends an integration's requests when it makes them itself (a test, a
 * redelivery): to each service, or, for local development, to the stand-in INTEGRATIONS_API_BASE
 * names, as the worker under `npm run dev` does. Only a stand-in on this machine, and never for
 * `--remote`: a production project's secrets go to their own services only.
 */
export function integrationsApiBase(global: Global): string | undefined {
  const text = process.env.INTEGRATIONS_API_BASE?.trim();
  if (!text || global.remote === true) return undefined;
  try {
    const url = new URL(text);
    const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return local && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
