// C44: what a hosted page needs of the store beyond a project's details: the project its form
// address names.
import { eq } from 'drizzle-orm';
import { projects } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';

/** The id of the project whose form address this is, or undefined. */
export async function projectIdOfForm(db: Db, formId: string): Promise<string | undefined> {
  const [row] = await storage(() =>
    db.select({ id: projects.id }).from(projects).where(eq(projects.formId, formId)).limit(1),
  );
  return row?.id;
}
