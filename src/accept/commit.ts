// C17, C18, C31: the write of an accepted submission, through the group commit. A batch that D1
// refuses because of one row is split until that row is alone, so its fault is its own: a deleted
// project's row answers 401, an oversized row 413, and the rows that shared its write are stored.

import { config } from '../config.ts';
import { enqueueStored } from '../delivery/outbox.ts';
import { formClosed, invalidKey, projectMoving, tooLargeToStore, validationFailed } from '../http/replies.ts';
import type { Problem } from '../lib/codes.ts';
import { StorageError } from '../lib/faults.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import { uuidv7 } from '../lib/ids.ts';
import { type CacheKey, forgetCached } from '../projects/cache.ts';
import { insertSubmissions, MAX_STORED_BYTES, movedAway, type NewSubmission } from '../store/intake.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { rowFault, takenFields } from '../store/refusals.ts';

// A batch stays well inside D1's limits: 100 rows, 1 MiB of JSON counted in UTF-8 bytes (the
// stored text's size, not its UTF-16 length).
const BATCH_LIMITS = { rows: 100, bytes: 1024 * 1024 };
const committers = new WeakMap<D1Database, GroupCommit<NewSubmission>>();
const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** C18: a write presumed lost is a storage failure: 503 with Retry-After, never a bare 500. */
export const lostWrite = () =>
  new StorageError(new Error('the write was presumed lost with the request that led it'));

/**
 * One committer per D1 binding, with the queue its deliveries go to (C26) and the time after which
 * a write's outcome is unknown (C18); the same binding for every request of an isolate.
 */
function committer(
  db: D1Database,
  queue: Queue | undefined,
  lostWriteMs: number,
  place: string,
): GroupCommit<NewSubmission> {
  let commit = committers.get(db);
  if (commit === undefined) {
    commit = new GroupCommit(
      (rows) => insertSubmissions(db, rows),
      (row) => utf8Bytes(row.data),
      BATCH_LIMITS,
      {
        split: (error) => rowFault(error) !== undefined,
        lost: lostWrite,
        lostWriteMs,
        // C26: after their 201s, the batch's marked submissions go to the queue (gathered with
        // those of the batches around it).
        afterWrite: (stored) => enqueueStored(queue, stored, place),
      },
    );
    committers.set(db, commit);
  }
  return commit;
}

/** What a write needs of the environment: the delivery queue (C26), when a write is lost (C18). */
export const writeEnv = (env: Env, place: string = DEFAULT_PLACE) => ({
  queue: env.DELIVERIES,
  lostWriteSeconds: config(env).LOST_WRITE_SECONDS,
  place,
});

/** C45: a value of a unique field that another accepted submission of the project holds. */
export const uniqueProblem = (field: string): Problem => ({
  field,
  code: 'unique',
  message: `Field '${field}' must be unique: this value was already sent`,
});

/**
 * C45: the values a submission claims in its project's unique fields, each as it is compared: an
 * address in lower case, other text in NFC and trimmed, a number as JSON writes it. Undefined when
 * it claims none.
 */
export function uniqueKeysOf(
  fields: readonly { name: string; rules?: { unique?: true; format?: string } }[],
  value: Record<string, unknown>,
): string | undefined {
  const keys: [string, string][] = [];
  for (const f of fields) {
    if (f.rules?.unique !== true || !Object.hasOwn(value, f.name)) continue;
    const v = value[f.name];
    if (typeof v === 'number') keys.push([f.name, JSON.stringify(v)]);
    else if (typeof v === 'string') {
      const text = v.normalize('NFC').trim();
      keys.push([f.name, f.rules.format === 'email' ? text.toLowerCase() : text]);
    }
  }
  return keys.length === 0 ? undefined : JSON.stringify(keys);
}

/**
 * The row of an accepted submission, with its outbox marker (C26) when its project has targets,
 * (C35) the challenge it passed in its own request, (C39) what its request said, and (C45) the
 * values it claims in its project's unique fields.
 */
export function acceptedRow(
  project: { id: string; hasTargets: boolean; fields?: Parameters<typeof uniqueKeysOf>[0] },
  value: Record<string, unknown>,
  spam: boolean,
  challenged = false,
  signals?: string,
): NewSubmission {
  const uniqueKeys = project.fields === undefined ? undefined : uniqueKeysOf(project.fields, value);
  return {
    id: uuidv7(),
    projectId: project.id,
    data: JSON.stringify(value),
    receivedAt: new Date().toISOString(),
    spam,
    // Spam is delivered to nobody.
    outbox: project.hasTargets && !spam ? 1 : null,
    ...(challenged ? { challenge: 'turnstile' } : {}),
    ...(signals === undefined ? {} : { signals }),
    ...(uniqueKeys === undefined ? {} : { uniqueKeys }),
  };
}

/**
 * Stores the row once D1 has acknowledged it (true), or reports that its Idempotency-Key was
 * already used (false); the row's `keyHash`, when it came with a key, records that key's use.
 * `cacheKey` is what its project was found under: when D1 says that project is gone, it is
 * forgotten at once, so the next request with that key (or form address) costs a lookup and gets
 * 401 (or 404) there.
 */
export async function commitRow(
  db: D1Database,
  row: NewSubmission & { keyHash?: string },
  cacheKey: CacheKey,
  keepAlive: (write: Promise<unknown>) => void,
  {
    queue,
    lostWriteSeconds = 30,
    place = DEFAULT_PLACE,
  }: { queue?: Queue | undefined; lostWriteSeconds?: number; place?: string } = {},
): Promise<boolean> {
  // Counted once: the same figure bounds the row and sizes its batch.
  const bytes = utf8Bytes(row.data);
  if (bytes > MAX_STORED_BYTES) throw tooLargeToStore();
  try {
    return await committer(db, queue, lostWriteSeconds * 1000, place).add(row, keepAlive, bytes);
  } catch (error) {
    const fault = rowFault(error);
    // C41: a project copied to another place refuses its rows here meanwhile; once it is there,
    // its rows here are gone, and so is its project: the key is looked up again (its place's
    // directory leads to the new one), and this request, told to retry, loses nothing.
    if (fault === 'project-moving') {
      // The key is looked up again by the next request: once the move has switched, it leads
      // there at once, not after the cache's seconds.
      forgetCached(db, cacheKey, false);
      throw projectMoving();
    }
    if (fault === 'project-gone') {
      const moved = await movedAway(db, row.projectId);
      forgetCached(db, cacheKey, !moved);
      if (moved) throw projectMoving();
      throw invalidKey();
    }
    if (fault === 'too-large') throw tooLargeToStore();
    if (fault === 'full') throw formClosed('full');
    // C45: which of its unique values another submission holds, asked once the row is alone.
    if (fault === 'unique' && row.uniqueKeys != null) {
      const keys = JSON.parse(row.uniqueKeys) as [string, string][];
      const taken = await takenFields(db, row.projectId, row.uniqueKeys);
      throw validationFailed((taken.length > 0 ? taken : keys.map(([field]) => field)).map(uniqueProblem));
    }
    throw error;
  }
}
