// C44: what a project's fields show, for the routes whose project came from its key's cache, which
// carries none of it (the submission path reads no more than it checks): the key-scoped JSON Schema
// (GET /api/v1/schema). One batch: the fields' labels and help, and the page's default language.
import { eq } from 'drizzle-orm';
import { fields, projects } from '../../schema/tables.ts';
import { type FieldDisplay, storedTextMap } from '../fields/display.ts';
import { type Db, storage } from './db.ts';

export async function fieldTexts(
  db: Db,
  projectId: string,
): Promise<{ language: string; texts: Map<string, FieldDisplay> }> {
  const [rows, [project]] = await storage(() =>
    db.batch([
      db
        .select({ name: fields.name, label: fields.label, help: fields.help })
        .from(fields)
        .where(eq(fields.projectId, projectId)),
      db.select({ languages: projects.pageLanguages }).from(projects).where(eq(projects.id, projectId)),
    ]),
  );
  const texts = new Map<string, FieldDisplay>();
  for (const { name, label, help } of rows) {
    texts.set(name, {
      ...(label === null ? {} : { label: storedTextMap(label) }),
      ...(help === null ? {} : { help: storedTextMap(help) }),
    });
  }
  const languages = project === undefined ? [] : (JSON.parse(project.languages) as string[]);
  return { language: languages[0] ?? 'en', texts };
}
