// C17 and README Speed: each project's resolved configuration, kept in isolate memory for a few seconds, so a
// warm submission costs one D1 round trip (the write) and a warm bad key none.
import { engineFor } from '../fields/pattern.ts';
import { type CompiledFields, compileFields } from '../fields/validation.ts';
import { Lru } from '../lib/lru.ts';
import { findProjectByFormId, findProjectByKeyHash, type ProjectConfig } from '../store/intake.ts';
import { hashKey } from './keys.ts';

export type ResolvedProject = ProjectConfig & { compiled: CompiledFields };

/** Bounded: random keys cannot grow memory past this many entries. */
const MAX_ENTRIES = 1000;
/** How long the hash of a recently seen key is kept. */
const HASH_SECONDS = 10;

type Caches = {
  ttlMs: number;
  known: Lru<string, ResolvedProject>;
  // Unknown and revoked keys apart, so a flood of bad keys cannot evict the good ones.
  unknown: Lru<string, true>;
};

// Per D1 binding: the cache speaks for one database.
const cachesByDb = new WeakMap<D1Database, Caches>();

function cachesFor(db: D1Database, ttlMs: number): Caches {
  let caches = cachesByDb.get(db);
  if (caches === undefined || caches.ttlMs !== ttlMs) {
    caches = {
      ttlMs,
      known: new Lru(MAX_ENTRIES, ttlMs),
      unknown: new Lru(MAX_ENTRIES, ttlMs),
    };
    cachesByDb.set(db, caches);
  }
  return caches;
}

// The SHA-256 of each recently seen key, so that a warm request skips hashing it (a hundredth of
// the accepted path's CPU, bench/RESULTS.md). In isolate memory only, where the request has put the key
// anyway, bounded and short-lived: never written to D1, never logged. D1 holds hashes only (C7).
const hashes = new Lru<string, string>(MAX_ENTRIES, HASH_SECONDS * 1000);

export async function keyHashOf(key: string): Promise<string> {
  const hit = hashes.get(key);
  if (hit !== undefined) return hit;
  const hash = await hashKey(key);
  hashes.set(key, hash);
  return hash;
}

/**
 * Key hash → project, fields (with their compiled schemas) and origins; undefined if no such key.
 * `beforeQuery` runs only when D1 must be asked, and may refuse by throwing (C21).
 */
export async function resolveProject(
  db: D1Database,
  keyHash: string,
  seconds: number,
  beforeQuery: () => void = () => {},
  lookup: (db: D1Database, id: string) => Promise<ProjectConfig | undefined> = findProjectByKeyHash,
): Promise<ResolvedProject | undefined> {
  if (seconds === 0) {
    beforeQuery();
    return await withSchemas(await lookup(db, keyHash));
  }
  const caches = cachesFor(db, seconds * 1000);
  const hit = caches.known.get(keyHash);
  if (hit !== undefined) return hit;
  if (caches.unknown.get(keyHash)) return undefined;
  beforeQuery();
  const project = await withSchemas(await lookup(db, keyHash));
  if (project === undefined) caches.unknown.set(keyHash, true);
  else caches.known.set(keyHash, project);
  return project;
}

/** A form id as `project create` makes it (`f_` and base32), as a migration gave one (hex), or `f_example`. */
export const FORM_ID = /^f_[a-z0-9]{4,32}$/;

/**
 * C29: a form address → its project, cached beside the keys under `form:<id>` (a key's hash is hex,
 * so the two never meet). The cache key stands for the form where a key hash would.
 */
export const formCacheKey = (formId: string) => `form:${formId}`;
export function resolveForm(
  db: D1Database,
  formId: string,
  seconds: number,
  beforeQuery: () => void = () => {},
): Promise<ResolvedProject | undefined> {
  return resolveProject(db, formCacheKey(formId), seconds, beforeQuery, (d) =>
    findProjectByFormId(d, formId),
  );
}

/**
 * Forgets what is cached for a key: D1 has said its project is gone (C31). It is remembered as
 * unknown, so that the requests that follow answer 401 without a query.
 */
export function forgetKey(db: D1Database, keyHash: string): void {
  const caches = cachesByDb.get(db);
  if (caches === undefined) return;
  caches.known.delete(keyHash);
  caches.unknown.set(keyHash, true);
}

async function withSchemas(project: ProjectConfig | undefined): Promise<ResolvedProject | undefined> {
  if (project === undefined) return undefined;
  const engine = await engineFor(project.fields);
  return { ...project, compiled: compileFields(project.fields, project.unknownFields, engine) };
}

/** Entries held for a database (and key hashes held), for tests and diagnostics. */
export function cacheSizes(db: D1Database): { known: number; unknown: number; hashes: number } {
  const caches = cachesByDb.get(db);
  return { known: caches?.known.size ?? 0, unknown: caches?.unknown.size ?? 0, hashes: hashes.size };
}
