// C19: what every management operation is given: the database, and who asks (for the audit
// log). Each operation exists once: the command-line tool and the management API both call it.

import type { R2Bucket } from '@cloudflare/workers-types';
import type { Mailer } from '../delivery/consent.ts';
import type { Assets } from '../lib/assets.ts';
import { NotFound, ProjectMoving } from '../lib/faults.ts';
import { type NewAuditEntry, recordAudit } from '../store/audit.ts';
import type { Db } from '../store/db.ts';
import { whereIs } from '../store/directory.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import { projectDetails } from '../store/projects.ts';

/**
 * Who makes a change: the operator (by token or Cloudflare Access), a project's key, the tool, or
 * (C37) the owner of an address, agreeing to receive a project's submissions.
 */
export type Actor =
  | { kind: 'tool' }
  | { kind: 'operator' }
  | { kind: 'access'; email: string }
  | { kind: 'key'; prefix: string }
  | { kind: 'recipient' };

export type Manager = {
  db: Db;
  /** C41: the place `db` is the database of (absent: the default place). */
  place?: string | undefined;
  /**
   * C41: every place's database, by name, the default's first; absent: `db` alone, the default's.
   * Operations on a project are given the manager of its place (`atProject`).
   */
  places?: ReadonlyMap<string, Db> | undefined;
  /** C41: a place's bucket of files, for a move (absent: the move copies no files). */
  files?: ((place: string) => R2Bucket | undefined) | undefined;
  actor: Actor;
  /**
   * In the worker: hands submissions marked for delivery to its queue (C26), so they go within
   * seconds. Elsewhere (the tool) the minute's sweep finds them.
   */
  enqueue?: ((submissionIds: string[]) => Promise<void>) | undefined;
  /**
   * C39: where the spam filter's model is read, to judge a submission before writing its
   * deliveries here (redelivery): the worker's ASSETS binding; the tool's built file.
   */
  assets?: Assets | undefined;
  /** In the worker: sends its own mail (C37: a verification) and knows its address for links. */
  mail?: Mailer | undefined;
  /**
   * The project the request's key was found with, in this request: it exists, so an operation
   * that needs only its id does not read it again (the key-scoped API stays one round trip).
   */
  keyProject?: string | undefined;
};

/** C37: whether the actor speaks for the operator (by token, Access or the tool), not a project. */
export const isOperator = (actor: Actor) =>
  actor.kind === 'operator' || actor.kind === 'access' || actor.kind === 'tool';

/** How the audit log names an actor (C32). */
export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case 'access':
      return `access:${actor.email}`;
    case 'key':
      return `key:${actor.prefix}`;
    default:
      return actor.kind;
  }
}

/**
 * C32: records a change once it is made: who, what, and the detail (never a secret, a key or a
 * submitted value).
 */
export function recordChange(
  m: Manager,
  projectId: string | null,
  action: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  return recordAudit(m.db, changeEntry(m, projectId, action, detail));
}

/** What the audit log records of a change (C32). */
export const changeEntry = (
  m: Manager,
  projectId: string | null,
  action: string,
  detail?: Record<string, unknown>,
): NewAuditEntry => ({
  projectId,
  actor: actorName(m.actor),
  action,
  ...(detail === undefined ? {} : { detail }),
});

export type ProjectDetails = NonNullable<Awaited<ReturnType<typeof projectDetails>>>;

/** C41: every place's database by name (the manager's own alone when it knows no others). */
export const placesOf = (m: Manager): ReadonlyMap<string, Db> =>
  m.places ?? new Map([[m.place ?? DEFAULT_PLACE, m.db]]);

/** C41: the databases of every place but the manager's own. */
export const otherPlaces = (m: Manager): Db[] =>
  [...placesOf(m)].filter(([name]) => name !== (m.place ?? DEFAULT_PLACE)).map(([, db]) => db);

/** C41: the default place's database, which holds the directory. */
export const homeOf = (m: Manager): Db => placesOf(m).get(DEFAULT_PLACE) ?? m.db;

/**
 * C41: the manager of the project's place, as the directory of the default place names it; a
 * project being moved is refused (503) until it is there.
 */
export async function atProject(m: Manager, projectId: string): Promise<Manager> {
  const all = placesOf(m);
  if (all.size < 2) return m;
  const { place, movingTo } = await whereIs(homeOf(m), projectId);
  if (movingTo !== null) throw new ProjectMoving(projectId, movingTo);
  const db = all.get(place);
  if (db === undefined) {
    throw new NotFound(
      `Project '${projectId}' lives in the place '${place}', which has no database binding here`,
      'see: docs/places.md',
    );
  }
  return { ...m, db, place };
}

/** The project's id once it is known to exist (NotFound when it does not). */
export async function projectIdOf(m: Manager, projectId: string): Promise<string> {
  if (m.keyProject === projectId) return projectId;
  return (await requireProject(m, projectId)).id;
}

/** The project with everything it owns but its submissions; NotFound when there is none. */
export async function requireProject(m: Manager, projectId: string): Promise<ProjectDetails> {
  const project = await projectDetails(m.db, projectId);
  if (project === undefined) throw new NotFound(`Unknown project '${projectId}'`, 'see: forms project list');
  return project;
}
