// C41: the places of the operations: the manager of a named place, a new project's id claimed
// across places, and the operator's view of them: each database's size against D1's limit, its
// rows, and a warning at 80% of it, when it is time to add a place and move projects there.
import { Conflict, InvalidInput } from '../lib/faults.ts';
import { type Capacity, capacityOf } from '../store/capacity.ts';
import { claimProjectId, whereIs } from '../store/directory.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { homeOf, type Manager, placesOf } from './context.ts';

/** D1's largest database (10 GB on the paid plan). */
export const D1_MAX_BYTES = 10_000_000_000;
/** The share of it past which the operator is warned. */
export const WARN_SHARE = 0.8;

export type PlaceView = Capacity & {
  name: string;
  maxBytes: number;
  /** bytes ÷ maxBytes, to four decimals; null when D1 did not say its size. */
  used: number | null;
  /** Set at 80% of D1's limit: what to do. */
  warning: string | null;
};

export async function listPlaces(m: Manager, maxBytes = D1_MAX_BYTES): Promise<PlaceView[]> {
  return Promise.all(
    [...placesOf(m)].map(async ([name, db]) => {
      const capacity = await capacityOf(db.$client);
      const used = capacity.bytes === null ? null : Math.round((capacity.bytes / maxBytes) * 10_000) / 10_000;
      return {
        name,
        ...capacity,
        maxBytes,
        used,
        warning:
          used !== null && used >= WARN_SHARE
            ? `The database of '${name}' is ${Math.round(used * 100)}% full: add a place and move projects to it (docs/places.md)`
            : null,
      };
    }),
  );
}

/**
 * C41: the manager of the named place (a new project's, or a move's destination); a place this
 * worker has no database for is refused, and nothing is made.
 */
export function atPlace(m: Manager, place: string): Manager & { place: string } {
  const all = placesOf(m);
  const db = all.get(place);
  if (db === undefined) {
    throw new InvalidInput(
      `Unknown place '${place}': this worker's places are ${[...all.keys()].map((p) => `'${p}'`).join(', ')}`,
    );
  }
  return { ...m, db, place };
}

/** C41: a project id is one project's in every place: the default database's directory keeps them apart. */
export async function claimPlace(m: Manager, projectId: string, place: string): Promise<void> {
  const home = homeOf(m);
  const free =
    place === DEFAULT_PLACE
      ? // Free unless another place's project has it (the default place's own clash on insert).
        (await whereIs(home, projectId)).place === DEFAULT_PLACE
      : await claimProjectId(home, projectId, place);
  if (!free) throw new Conflict(`A project '${projectId}' exists already`);
}
