// C7, C19, C23: a project's API keys: made (shown once), listed by prefix, revoked.
import type { KeyKind } from '../../schema/tables.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import { displayPrefix, generateKey, hashKey, looksLikeKey } from '../projects/keys.ts';
import { insertKey, type KeyRow, listKeys as listAll, revokeKey as markRevoked } from '../store/projects.ts';
import { type Manager, recordChange, requireProject } from './context.ts';

export type KeyView = {
  prefix: string;
  kind: KeyKind;
  createdAt: string;
  revokedAt: string | null;
  /** C32: when a request last used it (within CONFIG_CACHE_SECONDS), or null. */
  lastUsedAt: string | null;
};

/** A new key of this kind, and what D1 keeps of it: its hash and its display prefix (C7). */
export async function newKey(kind: KeyKind, place?: string): Promise<{ apiKey: string; row: KeyRow }> {
  // C41: the key names its place, so that a request finds the project's database first time.
  const apiKey = generateKey(kind, place);
  return { apiKey, row: { keyHash: await hashKey(apiKey), displayPrefix: displayPrefix(apiKey), kind } };
}

/** A further key: the key itself, shown this once (only its hash is stored, C7). */
export async function createKey(m: Manager, projectId: string, kind: KeyKind): Promise<string> {
  const p = await requireProject(m, projectId);
  const { apiKey: key, row } = await newKey(kind, m.place);
  await insertKey(m.db, p.id, row);
  await recordChange(m, p.id, 'key.create', { prefix: displayPrefix(key), kind });
  return key;
}

/** The project's keys as `key list` shows them: never a key, nor its hash. */
export async function listKeys(m: Manager, projectId: string): Promise<KeyView[]> {
  const p = await requireProject(m, projectId);
  return (await listAll(m.db, p.id)).map((k) => ({
    prefix: k.displayPrefix,
    kind: k.kind,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt,
    lastUsedAt: k.lastUsedAt,
  }));
}

/** Revokes the key with this display prefix (never the whole key: a command line or URL is logged). */
export async function revokeKey(m: Manager, projectId: string, given: string): Promise<string> {
  if (looksLikeKey(given)) {
    throw new InvalidInput(
      `Give the key's prefix as \`key list\` shows it (${displayPrefix(given)}), not the whole key: a command line is kept in shell history and logs`,
    );
  }
  const p = await requireProject(m, projectId);
  const matches = (await listAll(m.db, p.id)).filter((k) => k.displayPrefix === given.replace(/…$/, ''));
  const [match] = matches;
  if (match === undefined) throw new NotFound(`Project '${p.id}' has no key with the prefix '${given}'`);
  if (matches.length > 1) {
    throw new Conflict(`'${given}' is the prefix of several keys of '${p.id}': they cannot be told apart`);
  }
  if (match.revokedAt !== null || !(await markRevoked(m.db, p.id, match.keyHash))) {
    throw new Conflict(`Key ${match.displayPrefix}… is already revoked`);
  }
  await recordChange(m, p.id, 'key.revoke', { prefix: match.displayPrefix, kind: match.kind });
  return match.displayPrefix;
}
