// C19: what every management operation is given: the database, and who asks (for the audit
// log). Each operation exists once: the command-line tool and the management API both call it.
import { NotFound } from '../lib/faults.ts';
import type { Db } from '../store/db.ts';
import { projectDetails } from '../store/projects.ts';

/** Who makes a change: the operator (by token or Cloudflare Access), a project's key, or the tool. */
export type Actor =
  | { kind: 'tool' }
  | { kind: 'operator' }
  | { kind: 'access'; email: string }
  | { kind: 'key'; prefix: string };

export type Manager = { db: Db; actor: Actor };

export type ProjectDetails = NonNullable<Awaited<ReturnType<typeof projectDetails>>>;

/** The project with everything it owns but its submissions; NotFound when there is none. */
export async function requireProject(m: Manager, projectId: string): Promise<ProjectDetails> {
  const project = await projectDetails(m.db, projectId);
  if (project === undefined) throw new NotFound(`Unknown project '${projectId}'`, 'see: forms project list');
  return project;
}
