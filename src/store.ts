// Every D1 query of the service, through Drizzle. The worker and the Node scripts share it.
import type { D1Database, D1PreparedStatement } from '@cloudflare/workers-types';
import { and, eq, gt, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { type DrizzleD1Database, drizzle } from 'drizzle-orm/d1';
import type { Project, UnknownFieldPolicy } from '../schema/tables.ts';
import { allowedOrigins, apiKeys, fields, projects, submissions } from '../schema/tables.ts';
import { displayPrefix, generateKey, hashKey } from './auth.ts';
import { StorageError } from './envelope.ts';
import type { FieldDef } from './validation.ts';

export type Db = DrizzleD1Database & { $client: D1Database };

const databases = new WeakMap<D1Database, Db>();

/** One Drizzle instance per binding: building the relational config on every request is waste. */
export function database(d1: D1Database): Db {
  let db = databases.get(d1);
  if (db === undefined) {
    db = drizzle(d1);
    databases.set(d1, db);
  }
  return db;
}

/** C18: any failure to reach or use D1 becomes a StorageError, answered 503. */
async function storage<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (cause) {
    throw new StorageError(cause);
  }
}

export type ProjectConfig = {
  id: string;
  unknownFields: UnknownFieldPolicy;
  fields: FieldDef[];
  origins: string[];
  honeypot: string | null;
  turnstileSecret: string | null;
};

/** The hot-path read: key hash → project, its fields in order, and its origins, in one query. */
export function findProjectByKeyHash(db: Db, keyHash: string): Promise<ProjectConfig | undefined> {
  const fieldList = sql<string>`(select json_group_array(json_object('name', ${fields.name}, 'type', ${fields.type}, 'required', ${fields.required} = 1)) from (select * from ${fields} where ${fields.projectId} = "projects"."id" order by ${fields.position}) as ${fields})`;
  const originList = sql<string>`(select json_group_array(${allowedOrigins.origin}) from ${allowedOrigins} where ${allowedOrigins.projectId} = "projects"."id")`;
  return storage(async () => {
    const [row] = await db
      .select({
        id: projects.id,
        unknownFields: projects.unknownFields,
        honeypot: projects.honeypot,
        turnstileSecret: projects.turnstileSecret,
        fields: fieldList,
        origins: originList,
      })
      .from(apiKeys)
      .innerJoin(projects, eq(projects.id, apiKeys.projectId))
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)));
    if (row === undefined) return undefined;
    const fieldDefs = JSON.parse(row.fields) as (Omit<FieldDef, 'required'> & { required: 0 | 1 })[];
    return {
      id: row.id,
      unknownFields: row.unknownFields,
      honeypot: row.honeypot,
      turnstileSecret: row.turnstileSecret,
      fields: fieldDefs.map((f) => ({ ...f, required: f.required === 1 })),
      origins: JSON.parse(row.origins) as string[],
    };
  });
}

export type NewSubmission = {
  id: string;
  projectId: string;
  data: string;
  receivedAt: string;
  spam?: boolean;
  idempotencyKey?: string | null;
  bodyHash?: string | null;
};

// D1 binds at most 100 parameters per statement: 14 rows of 7 columns.
const ROWS_PER_INSERT = 14;

type Column = keyof Required<NewSubmission>;
type Encoder = { mapToDriverValue(value: unknown): unknown; default?: unknown };
type InsertParam = { row: number; column: Column; encoder: Encoder };
type InsertSql = { sql: string; params: InsertParam[] };
const insertSqls = new Map<number, InsertSql>();

/**
 * The insert of `n` rows, as SQL with its parameters in order, built by Drizzle from the table once
 * per row count and kept (issue 4: building it on every batch was a tenth of the accepted path).
 * Rows with Idempotency-Keys may conflict (C20): their insert skips those and returns the ids it
 * stored. Rows without cannot, so theirs is a plain insert, and returns nothing.
 */
function insertSql(db: Db, n: number, keyed: boolean): InsertSql {
  const cacheKey = keyed ? -n : n;
  let built = insertSqls.get(cacheKey);
  if (built === undefined) {
    const columns: Column[] = ['id', 'projectId', 'data', 'receivedAt', 'spam'];
    if (keyed) columns.push('idempotencyKey', 'bodyHash');
    const rows = Array.from({ length: n }, (_, i) =>
      Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${i} ${column}`)])),
    ) as unknown as (typeof submissions.$inferInsert)[];
    const insert = db.insert(submissions).values(rows);
    const query = keyed
      ? insert
          .onConflictDoNothing({ target: [submissions.projectId, submissions.idempotencyKey] })
          .returning({ id: submissions.id })
          .toSQL()
      : insert.toSQL();
    built = {
      sql: query.sql,
      // Each parameter is a Param: the placeholder, and the column that encodes its value.
      params: query.params.map((p) => {
        const param = p as { value: { name: string }; encoder: Encoder };
        const [row, column] = param.value.name.split(' ');
        return { row: Number(row), column: column as Column, encoder: param.encoder };
      }),
    };
    insertSqls.set(cacheKey, built);
  }
  return built;
}

/**
 * The value D1 stores for a column, by the column's own mapping (booleans as 0/1); absent is the
 * column's default, or NULL.
 */
function driverValue(rows: readonly NewSubmission[], { row, column, encoder }: InsertParam): unknown {
  const value = rows[row]?.[column] ?? encoder.default;
  return value === undefined || value === null ? null : encoder.mapToDriverValue(value);
}

/**
 * Stores the rows all or none: one statement, or one D1 batch (a transaction) of several. A row
 * whose Idempotency-Key the project has already used is skipped, not an error (C20): the result
 * says, row by row, whether it was stored.
 */
export async function insertSubmissions(db: Db, rows: readonly NewSubmission[]): Promise<boolean[]> {
  const d1 = db.$client;
  const statements: D1PreparedStatement[] = [];
  let keyed = false;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    const chunkKeyed = chunk.some((r) => r.idempotencyKey != null);
    keyed ||= chunkKeyed;
    const { sql: text, params } = insertSql(db, chunk.length, chunkKeyed);
    statements.push(d1.prepare(text).bind(...params.map((param) => driverValue(chunk, param))));
  }
  const [first, ...rest] = statements;
  if (first === undefined) return [];
  const results = await storage(async () => {
    if (rest.length > 0) return d1.batch<{ id: string }>(statements);
    return [keyed ? await first.all<{ id: string }>() : await first.run()];
  });
  // All or none: a row without a key is stored; one with a key, if its id came back.
  const stored = new Set(keyed ? results.flatMap((r) => r.results.map((row) => row.id)) : []);
  return rows.map((r) => r.idempotencyKey == null || stored.has(r.id));
}

export async function insertSubmission(db: Db, submission: NewSubmission): Promise<boolean> {
  const [stored] = await insertSubmissions(db, [submission]);
  return stored === true;
}

/** C20: the body hash stored with a project's Idempotency-Key, if that key has been used. */
export async function findIdempotencyKey(
  db: Db,
  projectId: string,
  idempotencyKey: string,
): Promise<{ bodyHash: string | null } | undefined> {
  const [row] = await storage(() =>
    db
      .select({ bodyHash: submissions.bodyHash })
      .from(submissions)
      .where(and(eq(submissions.projectId, projectId), eq(submissions.idempotencyKey, idempotencyKey))),
  );
  return row;
}

/** C20: forgets Idempotency-Keys received before `before` (the submissions stay). */
export async function purgeIdempotencyKeys(db: Db, before: string): Promise<number> {
  const result = await storage(() =>
    db
      .update(submissions)
      .set({ idempotencyKey: null, bodyHash: null })
      .where(and(isNotNull(submissions.idempotencyKey), lt(submissions.receivedAt, before)))
      .run(),
  );
  return result.meta.changes;
}

// ---- Administration (used by `npm run dev`, and by the command-line tool) ----

export type ProjectSpec = {
  id?: string;
  name: string;
  unknownFields?: UnknownFieldPolicy;
  fields: FieldDef[];
  origins?: string[];
  honeypot?: string | null;
  turnstileSecret?: string | null;
};

export type ProjectSettings = Partial<Pick<Project, 'unknownFields' | 'honeypot' | 'turnstileSecret'>>;

/** Changes a project's settings; returns whether the project exists. */
export async function updateProjectSettings(db: Db, projectId: string, settings: ProjectSettings) {
  const updated = await storage(() =>
    db.update(projects).set(settings).where(eq(projects.id, projectId)).returning({ id: projects.id }),
  );
  return updated.length > 0;
}

/** A short, readable project id: `p_` and 12 random base32 characters. */
function newProjectId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `p_${Array.from(bytes, (b) => alphabet[b % 32]).join('')}`;
}

async function keyRow(projectId: string, now: string) {
  const apiKey = generateKey();
  const row = {
    keyHash: await hashKey(apiKey),
    projectId,
    displayPrefix: displayPrefix(apiKey),
    createdAt: now,
  };
  return { apiKey, row };
}

/** Creates a project with its fields, origins and first key, all or nothing (one D1 batch). */
export async function createProject(
  db: Db,
  spec: ProjectSpec,
): Promise<{ projectId: string; apiKey: string }> {
  const projectId = spec.id ?? newProjectId();
  const now = new Date().toISOString();
  const { apiKey, row } = await keyRow(projectId, now);
  const origins = spec.origins ?? [];
  await storage(() =>
    db.batch([
      db.insert(projects).values({
        id: projectId,
        name: spec.name,
        unknownFields: spec.unknownFields ?? 'reject',
        honeypot: spec.honeypot ?? null,
        turnstileSecret: spec.turnstileSecret ?? null,
        createdAt: now,
      }),
      ...spec.fields.map((f, position) => db.insert(fields).values({ projectId, ...f, position })),
      ...origins.map((origin) => db.insert(allowedOrigins).values({ projectId, origin })),
      db.insert(apiKeys).values(row),
    ]),
  );
  return { projectId, apiKey };
}

export async function createKey(db: Db, projectId: string): Promise<string> {
  const { apiKey, row } = await keyRow(projectId, new Date().toISOString());
  await storage(() => db.insert(apiKeys).values(row));
  return apiKey;
}

export async function findProject(db: Db, projectId: string) {
  const [project] = await storage(() => db.select().from(projects).where(eq(projects.id, projectId)));
  return project;
}

/** A project with everything it owns but its submissions, for `project show` (one D1 batch). */
export async function projectDetails(db: Db, projectId: string) {
  const [[project], projectFields, origins, keys] = await storage(() =>
    db.batch([
      db.select().from(projects).where(eq(projects.id, projectId)),
      db.select().from(fields).where(eq(fields.projectId, projectId)).orderBy(fields.position),
      db
        .select()
        .from(allowedOrigins)
        .where(eq(allowedOrigins.projectId, projectId))
        .orderBy(allowedOrigins.origin),
      db
        .select({
          displayPrefix: apiKeys.displayPrefix,
          createdAt: apiKeys.createdAt,
          revokedAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(eq(apiKeys.projectId, projectId))
        .orderBy(apiKeys.createdAt),
    ]),
  );
  return project && { ...project, fields: projectFields, origins, keys };
}

export function listProjects(db: Db) {
  const count = (table: typeof fields | typeof apiKeys | typeof submissions) =>
    // Qualified by hand: unqualified, `id` would name the inner table's column in `submissions`.
    sql<number>`(select count(*) from ${table} where ${table.projectId} = "projects"."id")`.mapWith(Number);
  return storage(() =>
    db
      .select({
        id: projects.id,
        name: projects.name,
        createdAt: projects.createdAt,
        fields: count(fields),
        keys: count(apiKeys),
        submissions: count(submissions),
      })
      .from(projects)
      .orderBy(projects.createdAt, projects.id),
  );
}

/** Everything the project owns goes with it, in one batch (no reliance on foreign-key pragmas). */
export function deleteProject(db: Db, projectId: string) {
  return storage(() =>
    db.batch([
      db.delete(submissions).where(eq(submissions.projectId, projectId)),
      db.delete(apiKeys).where(eq(apiKeys.projectId, projectId)),
      db.delete(allowedOrigins).where(eq(allowedOrigins.projectId, projectId)),
      db.delete(fields).where(eq(fields.projectId, projectId)),
      db.delete(projects).where(eq(projects.id, projectId)),
    ]),
  );
}

/** Appends a field after the last one, in one statement (its position is computed by D1). */
export function addField(db: Db, projectId: string, field: FieldDef) {
  const next = sql<number>`(select coalesce(max(${fields.position}), -1) + 1 from ${fields} where ${fields.projectId} = ${projectId})`;
  return storage(() => db.insert(fields).values({ projectId, ...field, position: next }));
}

export async function removeField(db: Db, projectId: string, name: string): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(fields)
      .where(and(eq(fields.projectId, projectId), eq(fields.name, name)))
      .returning({ name: fields.name }),
  );
  return removed.length > 0;
}

export function addOrigin(db: Db, projectId: string, origin: string) {
  return storage(() => db.insert(allowedOrigins).values({ projectId, origin }));
}

export async function removeOrigin(db: Db, projectId: string, origin: string): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(allowedOrigins)
      .where(and(eq(allowedOrigins.projectId, projectId), eq(allowedOrigins.origin, origin)))
      .returning({ origin: allowedOrigins.origin }),
  );
  return removed.length > 0;
}

export function listKeys(db: Db, projectId: string) {
  return storage(() =>
    db
      .select({
        keyHash: apiKeys.keyHash,
        displayPrefix: apiKeys.displayPrefix,
        createdAt: apiKeys.createdAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.projectId, projectId))
      .orderBy(apiKeys.createdAt),
  );
}

/** Marks a key revoked; only an active key of this project changes. Returns whether one did. */
export async function revokeKey(db: Db, projectId: string, keyHash: string): Promise<boolean> {
  const revoked = await storage(() =>
    db
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(and(eq(apiKeys.keyHash, keyHash), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
      .returning({ keyHash: apiKeys.keyHash }),
  );
  return revoked.length > 0;
}

/**
 * Submissions oldest first, one page at a time (keyset pagination on the time-ordered id), so an
 * export of any size holds one page in memory.
 */
export async function* submissionPages(
  db: Db,
  projectId: string,
  options: { since?: string; pageSize?: number; includeSpam?: boolean } = {},
) {
  const pageSize = options.pageSize ?? 1000;
  let after = '';
  for (;;) {
    const page = await storage(() =>
      db
        .select({
          id: submissions.id,
          receivedAt: submissions.receivedAt,
          data: submissions.data,
          spam: submissions.spam,
        })
        .from(submissions)
        .where(
          and(
            eq(submissions.projectId, projectId),
            gt(submissions.id, after),
            options.since === undefined ? undefined : gte(submissions.receivedAt, options.since),
            // C22: spam stays out unless asked for.
            options.includeSpam ? undefined : eq(submissions.spam, false),
          ),
        )
        .orderBy(submissions.id)
        .limit(pageSize),
    );
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)?.id ?? after;
  }
}
