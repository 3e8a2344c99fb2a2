// Creating projects and keys: a key is made here, shown once to the caller, and only its hash is
// handed to D1 (C7).
import type { Db } from '../store/db.ts';
import { insertKey, insertProject, type KeyRow, type ProjectSpec } from '../store/projects.ts';
import { displayPrefix, generateKey, hashKey } from './keys.ts';

async function newKey(): Promise<{ apiKey: string; row: KeyRow }> {
  const apiKey = generateKey();
  return { apiKey, row: { keyHash: await hashKey(apiKey), displayPrefix: displayPrefix(apiKey) } };
}

/** Creates a project with its fields, origins and first key, all or nothing. */
export async function createProject(
  db: Db,
  spec: ProjectSpec,
): Promise<{ projectId: string; apiKey: string }> {
  const { apiKey, row } = await newKey();
  const projectId = await insertProject(db, spec, row);
  return { projectId, apiKey };
}

/** A further key for a project, for rotation without downtime (C7). */
export async function createKey(db: Db, projectId: string): Promise<string> {
  const { apiKey, row } = await newKey();
  await insertKey(db, projectId, row);
  return apiKey;
}
