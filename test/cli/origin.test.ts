// `forms origin …`: allowed origins (C15), end to end against a temporary local database.

import { describe, expect, it } from 'vitest';
import { hashKey } from '../../src/projects/keys.ts';
import { findProjectByKeyHash } from '../../src/store/intake.ts';
import { toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('origin');
const { json, expectRefused, newProject } = tool;

describe('origin add / remove', () => {
  it('adds origins normalised as browsers send them, and removes them', async () => {
    const p = await newProject();
    expect(await json('origin', 'add', p.projectId, 'HTTPS://Shop.Example:443/')).toEqual({
      projectId: p.projectId,
      origin: 'https://shop.example',
    });
    await json('origin', 'add', p.projectId, 'http://localhost:8080');
    let config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey));
    expect(config?.origins.sort()).toEqual(['http://localhost:8080', 'https://shop.example']);
    await json('origin', 'remove', p.projectId, 'https://shop.example');
    config = await findProjectByKeyHash(tool.database.db.$client, await hashKey(p.apiKey));
    expect(config?.origins).toEqual(['http://localhost:8080']);
  });

  it.each([
    'shop.example',
    'ftp://shop.example',
    'https://shop.example/path',
    'https://shop.example?x=1',
    'https://shop.example#top',
    'https://user:pass@shop.example',
    'https://',
    'https://exa mple.com',
    '*',
  ])('refuses the origin %s (not scheme://host[:port])', async (origin) => {
    const p = await newProject();
    await expectRefused(['origin', 'add', p.projectId, origin], /Invalid origin/);
  });

  it('refuses a duplicate and the removal of an origin not listed', async () => {
    const p = await newProject('--origin', 'https://a.example');
    await expectRefused(['origin', 'add', p.projectId, 'https://a.example'], /already allowed/);
    await expectRefused(['origin', 'remove', p.projectId, 'https://b.example'], /is not in the list/);
  });
});
