// Every D1 query of the service, through Drizzle. The worker and the Node scripts share it.
import type { D1Database } from '@cloudflare/workers-types';
import { and, eq, isNull } from 'drizzle-orm';
import { type DrizzleD1Database, drizzle } from 'drizzle-orm/d1';
import type { UnknownFieldPolicy } from '../schema/tables.ts';
import * as schema from '../schema/tables.ts';
import { allowedOrigins, apiKeys, fields, projects, submissions } from '../schema/tables.ts';
import { displayPrefix, generateKey, hashKey } from './auth.ts';
import { StorageError } from './envelope.ts';
import type { FieldDef } from './validation.ts';

export type Db = DrizzleD1Database<typeof schema>;

const databases = new WeakMap<D1Database, Db>();

/** One Drizzle instance per binding: building the relational config on every request is waste. */
export function database(d1: D1Database): Db {
  let db = databases.get(d1);
  if (db === undefined) {
    db = drizzle(d1, { schema });
    databases.set(d1, db);
  }
  return db;
}

/** C18: any failure to reach or use D1 becomes a StorageError, answered 503. */
async function storage<T>(query: () => Promise<T>): Promise<T> {
  try {
    return await query();
  } catch (cause) {
    throw new StorageError(cause);
  }
}

export type ProjectConfig = {
  id: string;
  unknownFields: UnknownFieldPolicy;
  fields: FieldDef[];
  origins: string[];
};

/** The hot-path read: key hash → project, its fields in order, and its origins, in one query. */
export function findProjectByKeyHash(db: Db, keyHash: string): Promise<ProjectConfig | undefined> {
  return storage(async () => {
    const row = await db.query.apiKeys.findFirst({
      where: and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)),
      columns: {},
      with: {
        project: {
          columns: { id: true, unknownFields: true },
          with: {
            fields: {
              columns: { name: true, type: true, required: true },
              orderBy: (f, { asc }) => [asc(f.position)],
            },
            origins: { columns: { origin: true } },
          },
        },
      },
    });
    if (row === undefined) return undefined;
    const { project } = row;
    return { ...project, origins: project.origins.map((o) => o.origin) };
  });
}

export type NewSubmission = { id: string; projectId: string; data: string; receivedAt: string };

export function insertSubmission(db: Db, submission: NewSubmission): Promise<void> {
  return storage(async () => {
    await db.insert(submissions).values(submission);
  });
}

// ---- Administration (used by `npm run dev`, and by the command-line tool) ----

export type ProjectSpec = {
  id?: string;
  name: string;
  unknownFields?: UnknownFieldPolicy;
  fields: FieldDef[];
  origins?: string[];
};

/** A short, readable project id: `p_` and 12 random base32 characters. */
function newProjectId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `p_${Array.from(bytes, (b) => alphabet[b % 32]).join('')}`;
}

async function keyRow(projectId: string, now: string) {
  const apiKey = generateKey();
  const row = {
    keyHash: await hashKey(apiKey),
    projectId,
    displayPrefix: displayPrefix(apiKey),
    createdAt: now,
  };
  return { apiKey, row };
}

/** Creates a project with its fields, origins and first key, all or nothing (one D1 batch). */
export async function createProject(
  db: Db,
  spec: ProjectSpec,
): Promise<{ projectId: string; apiKey: string }> {
  const projectId = spec.id ?? newProjectId();
  const now = new Date().toISOString();
  const { apiKey, row } = await keyRow(projectId, now);
  const origins = spec.origins ?? [];
  await storage(() =>
    db.batch([
      db.insert(projects).values({
        id: projectId,
        name: spec.name,
        unknownFields: spec.unknownFields ?? 'reject',
        createdAt: now,
      }),
      ...spec.fields.map((f, position) => db.insert(fields).values({ projectId, ...f, position })),
      ...origins.map((origin) => db.insert(allowedOrigins).values({ projectId, origin })),
      db.insert(apiKeys).values(row),
    ]),
  );
  return { projectId, apiKey };
}

export async function createKey(db: Db, projectId: string): Promise<string> {
  const { apiKey, row } = await keyRow(projectId, new Date().toISOString());
  await storage(() => db.insert(apiKeys).values(row));
  return apiKey;
}

export function findProject(db: Db, projectId: string) {
  return storage(() => db.query.projects.findFirst({ where: eq(projects.id, projectId) }));
}

export function listSubmissions(db: Db, projectId: string) {
  return storage(() =>
    db.select().from(submissions).where(eq(submissions.projectId, projectId)).orderBy(submissions.id),
  );
}
