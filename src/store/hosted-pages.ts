// C44: what a hosted page needs of the store beyond a project's details: the project its form
// address names; C45: and whether the form has all the submissions it takes.
import { and, count, eq } from 'drizzle-orm';
import { projects, submissions } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/** The id of the project whose form address this is, or undefined. */
export async function projectIdOfForm(db: Db, formId: string): Promise<string | undefined> {
  const [row] = await storage(() =>
    db.select({ id: projects.id }).from(projects).where(eq(projects.formId, formId)).limit(1),
  );
  return row?.id;
}

/** C45: how many accepted submissions (spam not counted, as the insert's trigger counts) a project has. */
export async function acceptedCount(db: Db, projectId: string): Promise<number> {
  const [row] = await storage(() =>
    db
      .select({ n: count() })
      .from(submissions)
      .where(and(eq(submissions.projectId, projectId), eq(submissions.spam, false))),
  );
  return row?.n ?? 0;
}
