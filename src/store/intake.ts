// The submission path's statements: the key's (or form's) project in one query, the batch insert,
// the Idempotency-Key look-up (C20) and an upload's clean-up (C30). Written as SQL on the D1
// binding itself, not through Drizzle: the ORM and the table definitions were a third of what an
// isolate evaluated at start for every form post (docs/layout.md); the rest of the store uses
// Drizzle, and a test holds these statements to the tables of schema/tables.ts, row for row.
import type { D1Database, D1PreparedStatement } from '@cloudflare/workers-types';
import type { KeyKind, UnknownFieldPolicy } from '../../schema/tables.ts';
import type { FieldRules } from '../fields/catalogue.ts';
import type { Condition } from '../fields/conditions.ts';
import type { FieldDef } from '../fields/validation.ts';
import { Lru } from '../lib/lru.ts';
import { MAX_PARAMETERS, storage } from './d1.ts';

export type ProjectConfig = {
  id: string;
  /** The kind of the key this configuration was found by (C23); a form address counts as publishable (C29). */
  keyKind: KeyKind;
  unknownFields: UnknownFieldPolicy;
  fields: FieldDef[];
  origins: string[];
  /**
   * C26, C27: the project has an active target (a webhook or an email address): its accepted
   * submissions are marked for delivery in their own row.
   */
  hasTargets: boolean;
  honeypot: string | null;
  turnstileSecret: string | null;
  /** C29: where an HTML form goes after a success, unless it names its own `_next`. */
  thankYouUrl: string | null;
  /** C39: a submission without a valid proof of work is refused, in the isolate. */
  proofOfWork: boolean;
  /** C45: when the form opens and closes (ISO times); null: always open. */
  opensAt: string | null;
  closesAt: string | null;
  /** C46: how many days a draft of its hosted page is kept; null: partial submissions are off. */
  partialsKeepDays: number | null;
};

// The project's settings, its fields in order and its origins as JSON arrays, and whether it has
// an active target, read beside the key (or the form address) in one query. Names are quoted, as
// Drizzle writes them, so that a statement reads the same whichever wrote it.
const PROJECT_COLUMNS = `p.id, p.unknown_fields, p.honeypot, p.turnstile_secret, p.thank_you_url, p.spam_proof_of_work, p.opens_at, p.closes_at, p.partials_keep_days,
  (select json_group_array(json_object('name', f.name, 'type', f.type, 'required', f.required = 1, 'rules', json(f.rules), 'when', json(f.when_condition)))
     from (select * from fields where project_id = p.id order by position) as f) as fields,
  (select json_group_array(origin) from allowed_origins where project_id = p.id) as origins,
  exists (select 1 from targets where project_id = p.id and disabled_at is null) as has_targets`;
// C41: one row whether or not the key (or form) is here: when it is not, `forwarded_to` names the
// place its project moved to, if it did (the directory), in the same query.
const BY_KEY = `select ${PROJECT_COLUMNS}, k.kind as key_kind,
  (select place from directory where lookup = 'k:' || ?1) as forwarded_to
  from (select 1) left join api_keys k on k.key_hash = ?1 and k.revoked_at is null
  left join projects p on p.id = k.project_id`;
const BY_FORM = `select ${PROJECT_COLUMNS}, 'publishable' as key_kind,
  (select place from directory where lookup = 'f:' || ?1) as forwarded_to
  from (select 1) left join projects p on p.form_id = ?1`;

type ProjectRow = {
  id: string | null;
  forwarded_to: string | null;
  unknown_fields: UnknownFieldPolicy;
  honeypot: string | null;
  turnstile_secret: string | null;
  thank_you_url: string | null;
  spam_proof_of_work: 0 | 1;
  opens_at: string | null;
  closes_at: string | null;
  partials_keep_days: number | null;
  fields: string;
  origins: string;
  has_targets: 0 | 1;
  key_kind: KeyKind;
};

/** C41: a key or form address this database no longer holds, and the place its project moved to. */
export type Forwarded = { forwardedTo: string };

async function findProjectConfig(
  d1: D1Database,
  sql: string,
  by: string,
): Promise<ProjectConfig | Forwarded | undefined> {
  const row = await storage(() => d1.prepare(sql).bind(by).first<ProjectRow>());
  if (row === null) return undefined;
  if (row.id === null) return row.forwarded_to === null ? undefined : { forwardedTo: row.forwarded_to };
  const fieldDefs = JSON.parse(row.fields) as (Omit<FieldDef, 'required' | 'rules' | 'when'> & {
    required: 0 | 1;
    rules: FieldRules | null;
    when: Condition | null;
  })[];
  return {
    id: row.id,
    keyKind: row.key_kind,
    unknownFields: row.unknown_fields,
    honeypot: row.honeypot,
    turnstileSecret: row.turnstile_secret,
    thankYouUrl: row.thank_you_url,
    proofOfWork: row.spam_proof_of_work === 1,
    opensAt: row.opens_at,
    closesAt: row.closes_at,
    partialsKeepDays: row.partials_keep_days,
    fields: fieldDefs.map(({ rules, when, ...f }) => ({
      ...f,
      required: f.required === 1,
      ...(rules === null ? {} : { rules }),
      ...(when === null ? {} : { when }),
    })),
    origins: JSON.parse(row.origins) as string[],
    hasTargets: row.has_targets === 1,
  };
}

/**
 * The hot-path read: a key's hash → its project, the project's fields in order, and its origins; or
 * (C41) the place its project moved to.
 */
export const lookUpKeyHash = (d1: D1Database, keyHash: string) => findProjectConfig(d1, BY_KEY, keyHash);
/** C29: the project of a form address; or (C41) the place it moved to. */
export const lookUpFormId = (d1: D1Database, formId: string) => findProjectConfig(d1, BY_FORM, formId);

const here = (found: ProjectConfig | Forwarded | undefined) =>
  found === undefined || 'forwardedTo' in found ? undefined : found;
/** A key's project in this database (none when it moved elsewhere). */
export const findProjectByKeyHash = async (d1: D1Database, keyHash: string) =>
  here(await lookUpKeyHash(d1, keyHash));
/** A form address's project in this database (none when it moved elsewhere). */
export const findProjectByFormId = async (d1: D1Database, formId: string) =>
  here(await lookUpFormId(d1, formId));

/** D1's largest string or row is 2,000,000 bytes: a submission's JSON stays below it, with room for the other columns. */
export const MAX_STORED_BYTES = 1_900_000;

export type NewSubmission = {
  id: string;
  projectId: string;
  data: string;
  receivedAt: string;
  spam?: boolean;
  idempotencyKey?: string | null;
  bodyHash?: string | null;
  /**
   * C26: 1 when the submission has deliveries to make (its project has targets, and it is not
   * spam): the outbox marker, stored in the row itself. Absent or null: none.
   */
  outbox?: 1 | null;
  /** C30: the names of its file fields, as a JSON array; their files are in R2 already. */
  files?: string | null;
  /** C35: the challenge it passed in its own request ('turnstile'), or none. */
  challenge?: string | null;
  /** C39: what its request said (src/accept/signals.ts, JSON), until its verdict is written. */
  signals?: string | null;
  /** C45: the values it claims in its project's unique fields (JSON [[field, value], …]). */
  uniqueKeys?: string | null;
  /** C46: the SHA-256 of the draft token it was sent from; its insert deletes that draft. */
  draftHash?: string | null;
  /** C32: the hash of the key it came with (not a column): its last use is recorded. */
  keyHash?: string;
};

// C32: the keys whose use this isolate has recorded within the last minute: their next use is not
// written again until then, so a busy key costs the accepted path nothing more most of the time.
const recordedUse = new Lru<string, true>(10_000, 60_000);
const KEY_HASH = /^[0-9a-f]{64}$/;

/** The keys of these rows whose use is due to be recorded. */
function keysDue(rows: readonly NewSubmission[]): string[] {
  const due = new Set<string>();
  for (const { keyHash } of rows) {
    if (keyHash !== undefined && KEY_HASH.test(keyHash) && recordedUse.get(keyHash) === undefined)
      due.add(keyHash);
  }
  return [...due];
}

type Column = Exclude<keyof Required<NewSubmission>, 'keyHash'>;

/** Each column a row may set, with the name it has in D1. */
const COLUMN_NAMES: Record<Column, string> = {
  id: 'id',
  projectId: 'project_id',
  data: 'data',
  receivedAt: 'received_at',
  spam: 'spam',
  idempotencyKey: 'idempotency_key',
  bodyHash: 'body_hash',
  files: 'files',
  outbox: 'outbox',
  challenge: 'challenge',
  signals: 'signals',
  uniqueKeys: 'unique_keys',
  draftHash: 'draft_hash',
};

/** The optional columns a statement's rows need, as bits (the cache's key) and as columns. */
type Shape = { flags: number; keyed: boolean; columns: Column[] };

function shapeOf(rows: readonly NewSubmission[]): Shape {
  const keyed = rows.some((r) => r.idempotencyKey != null);
  const withFiles = rows.some((r) => r.files != null);
  // C26: the outbox marker is a column of the row, in the same statement: no submission without
  // its deliveries, and no extra round trip, nor extra row.
  const withOutbox = rows.some((r) => r.outbox === 1);
  const withChallenge = rows.some((r) => r.challenge != null);
  const withSignals = rows.some((r) => r.signals != null);
  const withUnique = rows.some((r) => r.uniqueKeys != null);
  const withDraft = rows.some((r) => r.draftHash != null);
  const columns: Column[] = ['id', 'projectId', 'data', 'receivedAt', 'spam'];
  if (keyed) columns.push('idempotencyKey', 'bodyHash');
  if (withFiles) columns.push('files');
  if (withOutbox) columns.push('outbox');
  if (withChallenge) columns.push('challenge');
  if (withSignals) columns.push('signals');
  if (withUnique) columns.push('uniqueKeys');
  if (withDraft) columns.push('draftHash');
  const flags =
    (withDraft ? 64 : 0) +
    (withUnique ? 32 : 0) +
    (withSignals ? 16 : 0) +
    (keyed ? 8 : 0) +
    (withFiles ? 4 : 0) +
    (withOutbox ? 2 : 0) +
    (withChallenge ? 1 : 0);
  return { flags, keyed, columns };
}

const insertSqls = new Map<number, string>();

/**
 * The insert of `n` rows of a shape, made once per row count and shape and kept. C34: a new row is
 * unread, not starred and waiting to be indexed: constants in the SQL, not parameters (D1 allows
 * 100 a statement). Rows with Idempotency-Keys may conflict (C20): their insert skips those and
 * returns the ids it stored. Rows without cannot, so theirs is a plain insert.
 */
function insertSql(n: number, shape: Shape): string {
  const cacheKey = n * 128 + shape.flags;
  let built = insertSqls.get(cacheKey);
  if (built === undefined) {
    const names = shape.columns.map((column) => `"${COLUMN_NAMES[column]}"`).join(', ');
    const row = `(${shape.columns.map(() => '?').join(', ')}, 0, 1)`;
    built = `insert into "submissions" (${names}, "starred", "search_pending") values ${Array(n).fill(row).join(', ')}${
      shape.keyed ? ' on conflict ("project_id", "idempotency_key") do nothing returning "id"' : ''
    }`;
    insertSqls.set(cacheKey, built);
  }
  return built;
}

/** The value D1 stores for a column: booleans as 0/1, absent as NULL (spam: 0, its default). */
function driverValue(row: NewSubmission, column: Column): unknown {
  const value = row[column];
  if (column === 'spam') return value === true ? 1 : 0;
  return value ?? null;
}

/**
 * Stores the rows all or none: one statement, or one D1 batch (a transaction) of several. A row
 * whose Idempotency-Key the project has already used is skipped, not an error (C20): the result
 * says, row by row, whether it was stored.
 */
export async function insertSubmissions(d1: D1Database, rows: readonly NewSubmission[]): Promise<boolean[]> {
  const statements: D1PreparedStatement[] = [];
  const shape = shapeOf(rows);
  const keyed = shape.keyed;
  // As many rows to a statement as D1's parameters allow.
  const perInsert = Math.floor(MAX_PARAMETERS / shape.columns.length);
  for (let i = 0; i < rows.length; i += perInsert) {
    const chunk = rows.slice(i, i + perInsert);
    const params = chunk.flatMap((row) => shape.columns.map((column) => driverValue(row, column)));
    statements.push(d1.prepare(insertSql(chunk.length, shape)).bind(...params));
  }
  // C32: the keys' last use, in the same write, at most once a minute each.
  const due = keysDue(rows);
  if (due.length > 0) {
    statements.push(
      d1
        .prepare(
          'update "api_keys" set "last_used_at" = ? where "key_hash" in (select value from json_each(?))',
        )
        .bind(rows[0]?.receivedAt ?? new Date().toISOString(), JSON.stringify(due)),
    );
  }
  const [first, ...rest] = statements;
  if (first === undefined) return [];
  const results = await storage(async () => {
    if (rest.length > 0) return d1.batch<{ id: string }>(statements);
    return [keyed ? await first.all<{ id: string }>() : await first.run()];
  });
  for (const keyHash of due) recordedUse.set(keyHash, true);
  // All or none: a row without a key is stored; one with a key, if its id came back.
  const stored = new Set(keyed ? results.flatMap((r) => r.results.map((row) => row.id)) : []);
  return rows.map((r) => r.idempotencyKey == null || stored.has(r.id));
}

export async function insertSubmission(d1: D1Database, submission: NewSubmission): Promise<boolean> {
  const [stored] = await insertSubmissions(d1, [submission]);
  return stored === true;
}

/** C41: whether the project moved from this database to another place (its directory says so). */
export async function movedAway(d1: D1Database, projectId: string): Promise<boolean> {
  const row = await storage(() =>
    d1.prepare('select 1 as moved from "directory" where "project_id" = ? limit 1').bind(projectId).first(),
  );
  return row !== null;
}

/** C20: the body hash stored with a project's Idempotency-Key, if that key has been used. */
export async function findIdempotencyKey(
  d1: D1Database,
  projectId: string,
  idempotencyKey: string,
): Promise<{ id: string; bodyHash: string | null } | undefined> {
  const row = await storage(() =>
    d1
      .prepare('select "id", "body_hash" from "submissions" where "project_id" = ? and "idempotency_key" = ?')
      .bind(projectId, idempotencyKey)
      .first<{ id: string; body_hash: string | null }>(),
  );
  return row === null ? undefined : { id: row.id, bodyHash: row.body_hash };
}

/**
 * C30: before an upload, its prefix is due for deletion at `notBefore`, unless its submission is
 * stored first (whose insert removes it, in the same statement: a trigger).
 */
export async function scheduleUploadCleanup(d1: D1Database, prefix: string, now: Date, notBefore: Date) {
  await storage(() =>
    d1
      .prepare('insert into "file_deletions" ("prefix", "created_at", "not_before") values (?, ?, ?)')
      .bind(prefix, now.toISOString(), notBefore.toISOString())
      .run(),
  );
}
