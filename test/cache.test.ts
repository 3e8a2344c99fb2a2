// C17: the configuration cache — its time to live, its bounds, and what it costs in D1.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { apiKeys } from '../schema/tables.ts';
import { config } from '../src/config.ts';
import { cacheSizes, keyHashOf } from '../src/projects/cache.ts';
import { generateKey, hashKey } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import { addField } from '../src/store/projects.ts';
import { spyD1 } from './d1-spy.ts';
import { expectEnvelope, seedProject, submitWithEnv, VALID_BODY } from './helpers.ts';

function testEnv(seconds: number) {
  const spy = spyD1(env.DB);
  return { spy, env: { ...env, DB: spy.db, CONFIG_CACHE_SECONDS: seconds } as unknown as Env };
}

async function revoke(apiKey: string) {
  await database(env.DB)
    .update(apiKeys)
    .set({ revokedAt: new Date().toISOString() })
    .where(eq(apiKeys.keyHash, await hashKey(apiKey)));
}

describe('the configuration cache', () => {
  it('a revoked key is still seen for at most CONFIG_CACHE_SECONDS, then refused', async () => {
    const p = await seedProject();
    const t = testEnv(1);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'a' } }), 201);
    await revoke(p.apiKey);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'b' } }), 201);
    await scheduler.wait(1100);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'c' } }), 401);
  });

  it('CONFIG_CACHE_SECONDS = 0 turns the cache off: revocation is immediate', async () => {
    const p = await seedProject();
    const t = testEnv(0);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'a' } }), 201);
    await revoke(p.apiKey);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'b' } }), 401);
    expect(t.spy.trips.filter((s) => s.startsWith('select'))).toHaveLength(2);
  });

  it('a field added to a project is accepted once the cache time has passed', async () => {
    const p = await seedProject();
    const t = testEnv(1);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { late: 'x' } }), 400);
    await addField(database(env.DB), p.projectId, { name: 'late', type: 'string', required: false });
    await scheduler.wait(1100);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { late: 'x' } }), 201);
  });

  it('an unknown key is remembered only briefly', async () => {
    const t = testEnv(1);
    const key = generateKey();
    await expectEnvelope(await submitWithEnv(t.env, { key, json: VALID_BODY }), 401);
    expect(cacheSizes(t.env.DB).unknown).toBe(1);
    await scheduler.wait(1100);
    await expectEnvelope(await submitWithEnv(t.env, { key, json: VALID_BODY }), 401);
    expect(t.spy.trips).toHaveLength(2);
  });

  it('is bounded: a flood of random keys neither grows memory nor evicts a good key', async () => {
    const p = await seedProject();
    const t = testEnv(30);
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'warm' } }), 201);
    for (let i = 0; i < 3000; i++) {
      await submitWithEnv(t.env, { key: generateKey(), json: VALID_BODY });
    }
    const sizes = cacheSizes(t.env.DB);
    expect(sizes.unknown).toBe(1000);
    expect(sizes.known).toBe(1);
    expect(sizes.hashes).toBe(1000);
    t.spy.trips.length = 0;
    await expectEnvelope(await submitWithEnv(t.env, { key: p.apiKey, json: { name: 'still warm' } }), 201);
    expect(t.spy.trips.filter((s) => s.startsWith('select'))).toHaveLength(0);
  }, 60_000);

  it('C7 (property): the memoised hash of a key is its SHA-256, on first sight and after', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80 }), async (key) => {
        const expected = await hashKey(key);
        expect(await keyHashOf(key)).toBe(expected);
        expect(await keyHashOf(key)).toBe(expected);
      }),
    );
  });

  it('CONFIG_CACHE_SECONDS is held to 0–30, with 10 for a missing or malformed value', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const seconds = (value: unknown) =>
      config({ ...env, CONFIG_CACHE_SECONDS: value } as unknown as Env).CONFIG_CACHE_SECONDS;
    expect(seconds(0)).toBe(0);
    expect(seconds(5)).toBe(5);
    expect(seconds(300)).toBe(30);
    expect(seconds(-1)).toBe(10);
    expect(seconds('soon')).toBe(10);
    expect(seconds(undefined)).toBe(10);
    expect(config(env).CONFIG_CACHE_SECONDS).toBe(10);
  });
});
