// C6, C7: the key of a submission, end to end through the worker: how a bearer credential is sent
// and each way of sending it wrong; keys stored as their hash only, several to a project, a revoked
// one answered as an unknown one.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../schema/tables.ts';
import { createKey } from '../src/ops/keys.ts';
import { hashKey } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import {
  asTool,
  CREATED,
  expectEnvelope,
  INVALID_KEY,
  seedProject,
  storedData,
  submit,
  VALID_BODY,
} from './helpers.ts';

const HOW = "send it as 'Authorization: Bearer <API_KEY>'";

let project: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject();
});

describe('C6: bearer credentials', () => {
  it.each([['bearer'], ['BEARER'], ['BeArEr']])(
    'C6: the scheme "%s" is accepted (case-insensitive)',
    async (scheme) => {
      const res = await submit({ authorization: `${scheme} ${project.apiKey}`, json: { name: 'x' } });
      await expectEnvelope(res, 201, CREATED);
    },
  );

  it.each([
    ['no header', undefined, `Missing API key: ${HOW}`],
    ['an empty header', '', `Missing API key: ${HOW}`],
    ['another scheme', 'Basic dXNlcjpwYXNz', `Unsupported authorization scheme: ${HOW}`],
    ['the bare key', 'edgeform_00000000000000000000000000000000', `Unsupported authorization scheme: ${HOW}`],
    ['an empty token', 'Bearer', `Empty API key: ${HOW}`],
    ['an empty token after spaces', 'Bearer    ', `Empty API key: ${HOW}`],
    ['two tokens', 'Bearer abc def', `Malformed API key: ${HOW}`],
    ['a token with forbidden characters', 'Bearer abc"def', `Malformed API key: ${HOW}`],
  ])('C6: %s is 401 saying how to send the key, with WWW-Authenticate', async (_, header, text) => {
    const headers: Record<string, string> = {};
    if (header !== undefined) headers.Authorization = header;
    const res = await submit({ headers, json: VALID_BODY });
    await expectEnvelope(res, 401, { message: 'Authentication failed', error: { message: text } });
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });

  it('C6: a well-formed token that is not a key of ours is "Invalid API key"', async () => {
    const res = await submit({ authorization: 'Bearer sk_live_abc123', json: VALID_BODY });
    await expectEnvelope(res, 401, INVALID_KEY);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  });
});

describe('C7: API keys', () => {
  it('C7: only the SHA-256 of a key is stored, never the key', async () => {
    const p = await seedProject();
    const rows = await database(env.DB).select().from(apiKeys).where(eq(apiKeys.projectId, p.projectId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.keyHash).toBe(await hashKey(p.apiKey));
    expect(JSON.stringify(rows)).not.toContain(p.apiKey);
    expect(p.apiKey.startsWith(rows[0]?.displayPrefix ?? '?')).toBe(true);
    expect(rows[0]?.displayPrefix.length).toBeLessThan(p.apiKey.length / 2);
  });

  it('C7: a project may have several keys at once, each of which works', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    expect(second).not.toBe(p.apiKey);
    await expectEnvelope(await submit({ key: p.apiKey, json: { name: 'one' } }), 201, CREATED);
    await expectEnvelope(await submit({ key: second, json: { name: 'two' } }), 201, CREATED);
    expect(await storedData(p.projectId)).toEqual([{ name: 'one' }, { name: 'two' }]);
  });

  it('C7: a revoked key answers exactly like an unknown key, and its sibling keeps working', async () => {
    const p = await seedProject();
    const second = await createKey(asTool(), p.projectId, 'publishable');
    await database(env.DB)
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(apiKeys.keyHash, await hashKey(p.apiKey)));
    const revoked = await submit({ key: p.apiKey, json: { name: 'x' } });
    const unknown = await submit({ key: 'edgeform_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ', json: { name: 'x' } });
    const revokedBody = await expectEnvelope(revoked, 401, INVALID_KEY);
    const unknownBody = await expectEnvelope(unknown, 401, INVALID_KEY);
    expect(revokedBody).toEqual(unknownBody);
    await expectEnvelope(await submit({ key: second, json: { name: 'y' } }), 201, CREATED);
    expect(await storedData(p.projectId)).toEqual([{ name: 'y' }]);
  });
});
