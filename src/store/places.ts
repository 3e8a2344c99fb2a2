// C41: the places a project can live in. A place is a D1 database and its R2 bucket, found by the
// names of the worker's bindings: `DB` and `FILES` are the default place; `DB_EU` and `FILES_EU`
// the place `eu`, and so on. Keys and form addresses carry their place's name (none for the
// default), so that the submission path asks the right database first, with no look-up of where.
import type { D1Database, R2Bucket } from '@cloudflare/workers-types';

/** The place of `DB` and `FILES`, and of every key and form address without a tag. */
export const DEFAULT_PLACE = 'default';

/**
 * A place's D1 binding, `DB_<NAME>`: its name is short, lower case, and never a key's kind (`pk`,
 * `sk`), which sit where it does.
 */
const BINDING = /^DB_([A-Z][A-Z0-9]{0,11})$/;
const RESERVED = new Set(['pk', 'sk', DEFAULT_PLACE]);

export type Place = {
  name: string;
  /** The D1 binding: everything of the place's projects. */
  d1: D1Database;
  /** The R2 binding of their files; undefined when the worker has none (their uploads then get 503). */
  files: R2Bucket | undefined;
};

const known = new WeakMap<object, Map<string, Place>>();

/** Every place of the worker's bindings, the default first; the same objects for the same env. */
export function places(env: object): Place[] {
  return [...placeMap(env).values()];
}

function placeMap(env: object): Map<string, Place> {
  let map = known.get(env);
  if (map !== undefined) return map;
  const bindings = env as Record<string, unknown>;
  map = new Map();
  map.set(DEFAULT_PLACE, {
    name: DEFAULT_PLACE,
    d1: bindings.DB as D1Database,
    files: bindings.FILES as R2Bucket | undefined,
  });
  for (const name of Object.keys(bindings).sort()) {
    const suffix = BINDING.exec(name)?.[1];
    const place = suffix?.toLowerCase();
    if (suffix === undefined || place === undefined || RESERVED.has(place)) continue;
    map.set(place, {
      name: place,
      d1: bindings[name] as D1Database,
      // Never the default bucket: a place's files stay in its own (C41).
      files: bindings[`FILES_${suffix}`] as R2Bucket | undefined,
    });
  }
  known.set(env, map);
  return map;
}

/** The place of this name, or undefined when the worker has no such binding. */
export function placeNamed(env: object, name: string | null | undefined): Place | undefined {
  return placeMap(env).get(name ?? DEFAULT_PLACE);
}

/** The place of this name, which must exist (a name read back from D1 or a queue message). */
export function placeOf(env: object, name: string | null | undefined): Place {
  const place = placeNamed(env, name);
  if (place === undefined) throw new Error(`no D1 binding for the place '${name}'`);
  return place;
}

/** How a place's name is written into a key or a form address: nothing for the default. */
export const placeTag = (place: string) => (place === DEFAULT_PLACE ? '' : `${place}_`);
