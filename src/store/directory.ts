// C41: the directory (schema/places.ts `directory`): where each project lives when it is not in
// the default place, and where a moved project's old keys and form address lead. Read by the
// management API and the tool; the submission path reads only its forwarding rows, in the same
// query as the key (intake.ts).
import { and, eq, notLike } from 'drizzle-orm';
import { directory, projects } from '../../schema/tables.ts';
import { type Db, storage } from './db.ts';
import { DEFAULT_PLACE } from './places.ts';

const projectLookup = (projectId: string) => `p:${projectId}`;
export const keyLookup = (keyHash: string) => `k:${keyHash}`;
export const formLookup = (formId: string) => `f:${formId}`;

export type Whereabouts = { place: string; movingTo: string | null };

/** Where the project lives (the default place when the directory names none), read in the default database. */
export async function whereIs(home: Db, projectId: string): Promise<Whereabouts> {
  const [row] = await storage(() =>
    home
      .select({ place: directory.place, movingTo: directory.movingTo })
      .from(directory)
      .where(eq(directory.lookup, projectLookup(projectId))),
  );
  return row ?? { place: DEFAULT_PLACE, movingTo: null };
}

/**
 * Claims a project id for a place other than the default, in the default database: the id is
 * taken neither there nor by another place's project. False when it is.
 */
export async function claimProjectId(home: Db, projectId: string, place: string): Promise<boolean> {
  const result = await storage(() =>
    home.$client
      .prepare(
        `insert into "directory" ("lookup", "project_id", "place") select ?1, ?2, ?3
         where not exists (select 1 from "projects" where "id" = ?2)
         on conflict ("lookup") do nothing`,
      )
      .bind(projectLookup(projectId), projectId, place)
      .run(),
  );
  return result.meta.changes === 1;
}

/** Forgets the project in this database's directory: its place, its forwarding (deleted, or never made). */
export async function forgetProject(db: Db, projectId: string): Promise<void> {
  await storage(() => db.delete(directory).where(eq(directory.projectId, projectId)));
}

/** A move begins: the default database names where the project goes, and the source refuses its new rows. */
export async function beginMove(home: Db, source: Db, projectId: string, from: string, to: string) {
  await storage(() =>
    home
      .insert(directory)
      .values({ lookup: projectLookup(projectId), projectId, place: from, movingTo: to })
      .onConflictDoUpdate({ target: directory.lookup, set: { place: from, movingTo: to } }),
  );
  await storage(() =>
    source.update(projects).set({ movingSince: new Date().toISOString() }).where(eq(projects.id, projectId)),
  );
}

/** A move that failed: the project stays where it was, and takes submissions again. */
export async function abandonMove(home: Db, source: Db, projectId: string, from: string) {
  await storage(() => source.update(projects).set({ movingSince: null }).where(eq(projects.id, projectId)));
  await settlePlace(home, projectId, from);
}

/** The default database's entry for the project: its place (none for the default), no move. */
export async function settlePlace(home: Db, projectId: string, place: string): Promise<void> {
  if (place === DEFAULT_PLACE) {
    await storage(() => home.delete(directory).where(eq(directory.lookup, projectLookup(projectId))));
    return;
  }
  await storage(() =>
    home
      .insert(directory)
      .values({ lookup: projectLookup(projectId), projectId, place })
      .onConflictDoUpdate({ target: directory.lookup, set: { place, movingTo: null } }),
  );
}

/**
 * After a move: in a place the project has lived in, its keys and form address (made with that
 * place's tag) lead to the place it lives in now. `lookups` are the `k:`/`f:` entries to add.
 */
export async function forwardTo(db: Db, projectId: string, place: string, lookups: string[]): Promise<void> {
  await storage(() => db.update(directory).set({ place }).where(eq(directory.projectId, projectId)));
  for (let i = 0; i < lookups.length; i += 25) {
    const rows = lookups.slice(i, i + 25).map((lookup) => ({ lookup, projectId, place }));
    await storage(() =>
      db.insert(directory).values(rows).onConflictDoUpdate({ target: directory.lookup, set: { place } }),
    );
  }
}

/** The forwarding entries a place holds for a project that now lives in it: they would lead nowhere. */
export async function dropForwarding(db: Db, projectId: string): Promise<void> {
  await storage(() =>
    db.delete(directory).where(and(eq(directory.projectId, projectId), notLike(directory.lookup, 'p:%'))),
  );
}
