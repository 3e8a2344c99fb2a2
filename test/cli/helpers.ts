import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { BUILT_MODEL } from '../../cli/context.ts';
import { main } from '../../cli/index.ts';
import { judgeSubmissions } from '../../src/jobs/verdicts.ts';
import type { Db } from '../../src/store/db.ts';
import { writeOutbox } from '../../src/store/outbox.ts';
import { type Database, openDatabase } from '../../toolkit/database.ts';

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `forms-${name}-`));

function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

export type Result = { code: number; stdout: string; stderr: string };

export type Input = { stdin?: string; env?: Record<string, string | undefined> };

/**
 * Runs `forms` in this process against an already open database (fast: one workerd for a file),
 * with an empty environment and standard input unless `input` gives them.
 */
export function inProcess(database: Database, input: Input = {}) {
  return async (...argv: string[]): Promise<Result> => {
    const out = collector();
    const err = collector();
    const io = {
      stdout: out.stream,
      stderr: err.stream,
      stdin: Readable.from(input.stdin === undefined ? [] : [input.stdin]),
      env: input.env ?? {},
    };
    const code = await main(argv, io, async () => ({
      db: database.db,
      places: database.places,
      // C41, C44: the places' buckets, as the tool has them locally (a move's files, a page's logo).
      ...(database.files === undefined ? {} : { files: database.files }),
      close: async () => {},
    }));
    return { code, stdout: out.text(), stderr: err.text() };
  };
}

/** Runs `npm run forms -- …` as a user would, in its own process. */
export function spawnForms(args: string[]): Promise<Result> {
  return runProcess('npm', ['run', '-s', 'forms', '--', ...args]);
}

/** Runs a command to its end, with `stdin` as its standard input; its exit status and output. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; stdin?: string } = {},
): Promise<Result> {
  // A variable given as undefined is left out of the child's environment.
  const env = Object.fromEntries(
    Object.entries({ ...process.env, ...options.env, WRANGLER_SEND_METRICS: 'false' }).filter(
      (kv): kv is [string, string] => kv[1] !== undefined,
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.stdin.end(options.stdin ?? '');
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

export async function openTemp(name: string): Promise<Database & { dir: string }> {
  const dir = tempDir(name);
  return { ...(await openDatabase({ remote: false, persistTo: dir })), dir };
}

/** Every row of every table, to show that a refused command changed nothing. */
export async function snapshot(database: Database): Promise<string> {
  const tables = ['projects', 'fields', 'allowed_origins', 'api_keys', 'submissions'];
  const dumps = await Promise.all(
    tables.map((t) => database.db.all(sql.raw(`select * from ${t} order by 1, 2`))),
  );
  return JSON.stringify(dumps);
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * `npm run dev` on its own state and port, as a user starts it; resolves once wrangler is ready and
 * the summary after it (the key, the addresses, the curl line) is printed.
 */
export async function startDev(
  dir: string,
  port: number,
  extra: string[] = [],
): Promise<{ process: ChildProcess; log: () => string }> {
  // Its own devtools port too: wrangler takes 9229 when it looks free, and two test files starting
  // their servers at once would both take it.
  const inspector = String(await freePort());
  const args = [
    '--persist-to',
    dir,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    inspector,
    ...extra,
  ];
  const dev = spawn('npm', ['run', 'dev', '--', ...args], {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    detached: true,
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${log}`)), 90_000);
    const watch = (chunk: Buffer) => {
      log += String(chunk);
      if (/Ready on [\s\S]*-d '\{.*\}'\n/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev.stdout?.on('data', watch);
    dev.stderr?.on('data', watch);
  });
  return { process: dev, log: () => log };
}

/**
 * The tool on a temporary database of its own, opened before the file's tests and closed after:
 * the helpers every command group's tests use.
 */
export function toolOnTemp(name: string) {
  const state: { database?: Database & { dir: string }; forms?: ReturnType<typeof inProcess> } = {};
  beforeAll(async () => {
    state.database = await openTemp(name);
    state.forms = inProcess(state.database);
  });
  afterAll(async () => {
    await state.database?.close();
  });
  const tool = {
    get database(): Database & { dir: string } {
      if (state.database === undefined) throw new Error('the database opens before the tests');
      return state.database;
    },
    forms: (...argv: string[]): Promise<Result> => {
      if (state.forms === undefined) throw new Error('the database opens before the tests');
      return state.forms(...argv);
    },
    /** The command with `--json`: it succeeds, prints nothing on stderr; its document. */
    async json<T = Record<string, unknown>>(...argv: string[]): Promise<T> {
      const result = await tool.forms(...argv, '--json');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as T;
    },
    /** C19: bad input is one line on stderr, exit status 2, and changes nothing. */
    async expectRefused(argv: string[], message: string | RegExp) {
      const before = await snapshot(tool.database);
      const result = await tool.forms(...argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
      expect(await snapshot(tool.database)).toBe(before);
    },
    /** A project with a `name` field (and whatever else is given), made by the tool. */
    newProject: (...extra: string[]) =>
      tool.json<{ projectId: string; apiKey: string }>(
        'project',
        'create',
        'Contact',
        '--field',
        'name:string',
        ...extra,
      ),
  };
  return tool;
}

export type Received = { path: string; headers: Record<string, string>; body: string; answered: number };

/**
 * A receiver on 127.0.0.1 (the local exception for destinations) for the file's tests: it records
 * each request and answers `answer` (a status, or one chosen from its path and the requests before)
 * with `body`
 * (or `answered <status>`); both can be changed between tests. `url` is its `/hook`; any path is
 * answered, so a Slack or Discord stand-in is `origin` with that platform's path.
 */
export function receiverOnLoopback() {
  const hook = {
    url: '',
    origin: '',
    answer: 200 as number | ((path: string, before: Received[]) => number),
    body: undefined as string | undefined,
    received: [] as Received[],
  };
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      const answered = typeof hook.answer === 'number' ? hook.answer : hook.answer(path, hook.received);
      hook.received.push({ path, headers: req.headers as Record<string, string>, body, answered });
      res.writeHead(answered).end(hook.body ?? `answered ${answered}`);
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    hook.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    hook.url = `${hook.origin}/hook`;
  });
  afterAll(() => {
    server.close();
  });
  return hook;
}

/**
 * What the queue consumer does with stored submissions before sending their deliveries (C26,
 * C39), on a local database: judges them, then writes their delivery rows; returns their ids.
 */
export async function consumeStored(db: Db, ids: readonly string[]): Promise<string[]> {
  await judgeSubmissions(db, BUILT_MODEL, ids, Date.now());
  return writeOutbox(db, ids);
}

/** C39: judges stored submissions as the queue consumer does, on a local database. */
export const judgeStored = (db: Db, ids: readonly string[]) =>
  judgeSubmissions(db, BUILT_MODEL, ids, Date.now());
