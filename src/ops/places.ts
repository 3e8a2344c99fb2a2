// C41: the operator's view of the places: each database's size against D1's limit, its rows, and
// a warning at 80% of it, when it is time to add a place and move projects there (docs/places.md).
import { type Capacity, capacityOf } from '../store/capacity.ts';
import { type Manager, placesOf } from './context.ts';

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
