// C17 and README Speed: each project's resolved configuration, kept in isolate memory for a few seconds, so a
// warm submission costs one D1 round trip (the write) and a warm bad key none.
import { engineFor } from '../fields/pattern.ts';
import { type CompiledFields, compileFields, logicFor } from '../fields/validation.ts';
import { Lru } from '../lib/lru.ts';
import { type Forwarded, lookUpFormId, lookUpKeyHash, type ProjectConfig } from '../store/intake.ts';
import { DEFAULT_PLACE, type Place, placeNamed } from '../store/places.ts';
import { hashKey } from './keys.ts';

/** C41: `place` is where the project lives: the database its submissions go to. */
export type ResolvedProject = ProjectConfig & { compiled: CompiledFields; place: string };

type Lookup = (db: D1Database, id: string) => Promise<ProjectConfig | Forwarded | undefined>;

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
 * C41: the project in the place the key (or form) names, or, when that place's directory says the
 * project moved, in the place it moved to (one more query, for a key older than the move, cached).
 */
async function lookUp(
  env: object,
  place: Place,
  id: string,
  lookup: Lookup,
): Promise<ResolvedProject | undefined> {
  const found = await lookup(place.d1, id);
  if (found === undefined) return undefined;
  if (!('forwardedTo' in found)) return withSchemas(found, place.name);
  const there = placeNamed(env, found.forwardedTo);
  if (there === undefined || there === place) return undefined;
  const moved = await lookup(there.d1, id);
  return moved === undefined || 'forwardedTo' in moved ? undefined : withSchemas(moved, there.name);
}

/**
 * What a project is cached under: a key's hash (hex), or `form:<id>` for a form address
 * (formCacheKey), so the two never meet.
 */
export type CacheKey = string;

/**
 * A key's hash (or a form's cache key, with its `lookup`) → project, fields (with their compiled
 * schemas) and origins; undefined if no such key, or none in a place this worker has (C41: `place`
 * is the name the key carries). `beforeQuery` runs only when D1 must be asked, and may refuse by
 * throwing (C21).
 */
export async function resolveProject(
  env: object,
  placeName: string,
  cacheKey: CacheKey,
  seconds: number,
  beforeQuery: () => void = () => {},
  lookup: Lookup = lookUpKeyHash,
): Promise<ResolvedProject | undefined> {
  const place = placeNamed(env, placeName);
  if (place === undefined) return undefined;
  const db = place.d1;
  if (seconds === 0) {
    beforeQuery();
    return await lookUp(env, place, cacheKey, lookup);
  }
  const caches = cachesFor(db, seconds * 1000);
  const hit = caches.known.get(cacheKey);
  if (hit !== undefined) return hit;
  if (caches.unknown.get(cacheKey)) return undefined;
  beforeQuery();
  const project = await lookUp(env, place, cacheKey, lookup);
  if (project === undefined) caches.unknown.set(cacheKey, true);
  else caches.known.set(cacheKey, project);
  return project;
}

/**
 * A form id as `project create` makes it (`f_`, its place's name and `_` unless it is the default
 * place (C41), and base32), as a migration gave one (hex), or `f_example`.
 */
export const FORM_ID = /^f_(?:([a-z][a-z0-9]{0,11})_)?[a-z0-9]{4,32}$/;

/** C41: the place a form address names (the default's when it names none). */
export const placeOfForm = (formId: string) => FORM_ID.exec(formId)?.[1] ?? DEFAULT_PLACE;

/**
 * C29: a form address → its project, cached beside the keys under `form:<id>` (a key's hash is hex,
 * so the two never meet). The cache key stands for the form where a key hash would.
 */
export const formCacheKey = (formId: string): CacheKey => `form:${formId}`;
export function resolveForm(
  env: object,
  formId: string,
  seconds: number,
  beforeQuery: () => void = () => {},
): Promise<ResolvedProject | undefined> {
  return resolveProject(env, placeOfForm(formId), formCacheKey(formId), seconds, beforeQuery, (d) =>
    lookUpFormId(d, formId),
  );
}

/**
 * Forgets what is cached for a key (or a form address): D1 has said its project is gone (C31). It is remembered as
 * unknown, so that the requests that follow answer 401 without a query; unless (C41) the project
 * moved to another place, which the next request's look-up finds.
 */
export function forgetCached(db: D1Database, cacheKey: CacheKey, gone = true): void {
  const caches = cachesByDb.get(db);
  if (caches === undefined) return;
  caches.known.delete(cacheKey);
  if (gone) caches.unknown.set(cacheKey, true);
}

async function withSchemas(project: ProjectConfig, place: string): Promise<ResolvedProject> {
  const [engine, logic] = await Promise.all([engineFor(project.fields), logicFor(project.fields)]);
  return { ...project, place, compiled: compileFields(project.fields, project.unknownFields, engine, logic) };
}

/** Entries held for a database (and key hashes held), for tests and diagnostics. */
export function cacheSizes(db: D1Database): { known: number; unknown: number; hashes: number } {
  const caches = cachesByDb.get(db);
  return { known: caches?.known.size ?? 0, unknown: caches?.unknown.size ?? 0, hashes: hashes.size };
}
