// `forms key …`: API keys, made and printed once, listed and revoked by prefix (C7, C23), end to end against a temporary local database.

import { describe, expect, it } from 'vitest';
import { displayPrefix, hashKey } from '../../src/projects/keys.ts';
import { findProjectByKeyHash } from '../../src/store/intake.ts';
import { toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('key');
const { forms, json, expectRefused, newProject } = tool;

describe('key create / list / revoke', () => {
  it('creates further keys, lists them by prefix, and revokes by prefix', async () => {
    const p = await newProject();
    const second = await json<{ projectId: string; apiKey: string }>('key', 'create', p.projectId);
    expect(second.projectId).toBe(p.projectId);
    expect(second.apiKey).not.toBe(p.apiKey);
    const third = await json<{ apiKey: string }>('key', 'create', p.projectId);

    expect(await json('key', 'revoke', p.projectId, displayPrefix(p.apiKey))).toEqual({
      projectId: p.projectId,
      revoked: displayPrefix(p.apiKey),
    });
    // The prefix as `key list` prints it, ellipsis included.
    await json('key', 'revoke', p.projectId, `${displayPrefix(second.apiKey)}…`);

    const { keys } = await json<{ keys: { prefix: string; revokedAt: string | null }[] }>(
      'key',
      'list',
      p.projectId,
    );
    expect(keys.map((k) => [k.prefix, k.revokedAt === null])).toEqual([
      [displayPrefix(p.apiKey), false],
      [displayPrefix(second.apiKey), false],
      [displayPrefix(third.apiKey), true],
    ]);
    for (const revoked of [p.apiKey, second.apiKey]) {
      expect(await findProjectByKeyHash(tool.database.db.$client, await hashKey(revoked))).toBeUndefined();
    }
    expect((await findProjectByKeyHash(tool.database.db.$client, await hashKey(third.apiKey)))?.id).toBe(
      p.projectId,
    );
    const listed = await forms('key', 'list', p.projectId);
    for (const k of [p.apiKey, second.apiKey, third.apiKey]) expect(listed.stdout).not.toContain(k);
  });

  it('refuses a whole key (it would stay in shell history and logs), a revoked key, an unknown prefix, and a key of another project', async () => {
    const p = await newProject();
    const other = await newProject();
    await expectRefused(['key', 'revoke', p.projectId, p.apiKey], /prefix .* not the whole key/);
    await json('key', 'revoke', p.projectId, displayPrefix(p.apiKey));
    await expectRefused(['key', 'revoke', p.projectId, displayPrefix(p.apiKey)], /is already revoked/);
    await expectRefused(['key', 'revoke', p.projectId, 'edgeform_00000000'], /has no key/);
    await expectRefused(['key', 'revoke', p.projectId, displayPrefix(other.apiKey)], /has no key/);
  });
});

describe('secret keys (C23)', () => {
  it('C23: key create --secret makes a secret key, printed once with a warning; key list shows each kind', async () => {
    const p = await newProject();
    const secret = await json<{ projectId: string; apiKey: string; kind: string }>(
      'key',
      'create',
      p.projectId,
      '--secret',
    );
    expect(secret).toEqual({
      projectId: p.projectId,
      apiKey: expect.stringMatching(/^edgeform_sk_[0-9A-Za-z]{32}$/),
      kind: 'secret',
    });
    expect(
      (await findProjectByKeyHash(tool.database.db.$client, await hashKey(secret.apiKey)))?.keyKind,
    ).toBe('secret');
    const text = await forms('key', 'create', p.projectId, '--secret');
    expect(text.stdout).toMatch(
      /^New secret API key for p_\w+ \(shown once\): edgeform_sk_\w{32}\nKeep it on your server/,
    );
    const { keys } = await json<{ keys: { prefix: string; kind: string }[] }>('key', 'list', p.projectId);
    expect(keys.map((k) => k.kind)).toEqual(['publishable', 'secret', 'secret']);
    expect(keys[1]?.prefix).toBe(displayPrefix(secret.apiKey));
    const listed = await forms('key', 'list', p.projectId);
    expect(listed.stdout).toMatch(/^PREFIX\s+KIND\s+CREATED\s+LAST USED\s+STATE\n/);
    expect(listed.stdout).toMatch(/ never +active\n/);
    expect(listed.stdout).toContain(`${displayPrefix(secret.apiKey)}…  secret`);
    expect(listed.stdout).not.toContain(secret.apiKey);
  });
});
