// Creating projects and keys: a key is made here, shown once to the caller, and only its hash is
// handed to D1 (C7).
import type { KeyKind } from '../../schema/tables.ts';
import type { Db } from '../store/db.ts';
import { insertKey, insertProject, type KeyRow, type ProjectSpec } from '../store/projects.ts';
import { displayPrefix, generateKey, hashKey } from './keys.ts';

async function newKey(kind: KeyKind): Promise<{ apiKey: string; row: KeyRow }> {
  const apiKey = generateKey(kind);
  return { apiKey, row: { keyHash: await hashKey(apiKey), displayPrefix: displayPrefix(apiKey), kind } };
}

/** Creates a project with its fields, origins and first key (publishable), all or nothing. */
export async function createProject(
  db: Db,
  spec: ProjectSpec,
): Promise<{ projectId: string; formId: string; apiKey: string }> {
  const { apiKey, row } = await newKey('publishable');
  const { projectId, formId } = await insertProject(db, spec, row);
  return { projectId, formId, apiKey };
}

/** A further key for a project (C7: rotation without downtime; C23: a secret key for servers). */
export async function createKey(db: Db, projectId: string, kind: KeyKind = 'publishable'): Promise<string> {
  const { apiKey, row } = await newKey(kind);
  await insertKey(db, projectId, row);
  return apiKey;
}
