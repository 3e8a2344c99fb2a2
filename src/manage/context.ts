// C19: what every management operation is given: the database, and who asks (for the audit
// log). Each operation exists once: the command-line tool and the management API both call it.
import { NotFound } from '../lib/faults.ts';
import { recordAudit } from '../store/audit.ts';
import type { Db } from '../store/db.ts';
import { projectDetails } from '../store/projects.ts';

/** Who makes a change: the operator (by token or Cloudflare Access), a project's key, or the tool. */
export type Actor =
  | { kind: 'tool' }
  | { kind: 'operator' }
  | { kind: 'access'; email: string }
  | { kind: 'key'; prefix: string };

export type Manager = {
  db: Db;
  actor: Actor;
  /**
   * In the worker: hands submissions marked for delivery to its queue (C26), so they go within
   * seconds. Elsewhere (the tool) the minute's sweep finds them.
   */
  enqueue?: ((submissionIds: string[]) => Promise<void>) | undefined;
};

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
  return recordAudit(m.db, {
    projectId,
    actor: actorName(m.actor),
    action,
    ...(detail === undefined ? {} : { detail }),
  });
}

export type ProjectDetails = NonNullable<Awaited<ReturnType<typeof projectDetails>>>;

/** The project with everything it owns but its submissions; NotFound when there is none. */
export async function requireProject(m: Manager, projectId: string): Promise<ProjectDetails> {
  const project = await projectDetails(m.db, projectId);
  if (project === undefined) throw new NotFound(`Unknown project '${projectId}'`, 'see: forms project list');
  return project;
}
