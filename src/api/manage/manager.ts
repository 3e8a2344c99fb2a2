// C32, C41: the operations' view of a management request's caller: its place's database (held to
// the project's fence), every place's beside it, the actor, the queue and the worker's own mail.
import type { Context } from 'hono';
import { config } from '../../config.ts';
import { sendMail } from '../../delivery/mail.ts';
import { mailSetup } from '../../delivery/mail-settings.ts';
import { enqueueStored } from '../../delivery/outbox.ts';
import { atProject, type Manager } from '../../ops/context.ts';
import { forgetCached } from '../../projects/cache.ts';
import { database, fencedDatabase, placeDatabases } from '../../store/db.ts';
import { DEFAULT_PLACE, placeNamed } from '../../store/places.ts';
import type { ManageEnv, Principal } from './principal.ts';

/**
 * The operations' view of the caller: the database (C41: of the project's place, on a project's
 * route; else the default's, with every place's beside it), the actor, and the worker's queue.
 * `findsPlace`: the route's operation finds the project's place itself (its RouteSpec says so).
 */
export async function managerOf(
  c: Context<ManageEnv>,
  principal: Principal,
  findsPlace: boolean,
): Promise<Manager> {
  const all = placeDatabases(c.env);
  const projectId = c.req.param('projectId');
  const keyPlace = principal.projectId === projectId ? principal.place : undefined;
  // C41: an operation that finds the project's place itself (a move: it takes up a move that
  // stopped midway, which every other route of the project refuses with 503 until it is done) is
  // given the default place's database and no fence.
  const unfenced = projectId === undefined || findsPlace;
  const at = unfenced
    ? { place: DEFAULT_PLACE }
    : keyPlace !== undefined
      ? { place: keyPlace }
      : await atProject({ db: database(c.env.DB), actor: principal.actor, places: all }, projectId);
  const place = at.place ?? DEFAULT_PLACE;
  const queue = c.env.DELIVERIES;
  const d1 = placeNamed(c.env, place)?.d1 ?? c.env.DB;
  const keyHash = principal.credentialHash;
  // C41: a project's statements are held to its fence: its place, as the key's cache or the
  // directory named it a moment ago, must still be where it lives, and it must not be moving.
  const db = unfenced
    ? (all.get(place) ?? database(c.env.DB))
    : fencedDatabase(d1, {
        projectId,
        place,
        keyed: keyPlace !== undefined,
        left: (moved) => {
          if (keyPlace !== undefined && keyHash !== null) forgetCached(d1, keyHash, !moved);
        },
      });
  return {
    db,
    place,
    places: all,
    files: (name) => placeNamed(c.env, name)?.files,
    actor: principal.actor,
    keyProject: principal.projectId,
    assets: c.env.ASSETS,
    enqueue: (ids) =>
      enqueueStored(
        queue,
        ids.map((id) => ({ id })),
        place,
      ),
    // C37: the verification mail of an address that must agree first, with a link to this worker.
    mail: {
      baseUrl: config(c.env).PUBLIC_URL ?? new URL(c.req.url).origin,
      send: (make) => sendMail(mailSetup(c.env), make),
    },
  };
}
