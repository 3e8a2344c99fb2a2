import { describe, expect, it } from 'vitest';
import { expectEnvelope, seedProject, storedRows, submit } from './helpers.ts';

describe('group commit across request contexts', () => {
  it('waves of concurrent requests through the entry point all get 201 and are all stored', async () => {
    const p = await seedProject();
    let n = 0;
    for (let wave = 0; wave < 5; wave++) {
      const replies = await Promise.all(
        Array.from({ length: 40 }, () => submit({ key: p.apiKey, json: { phone: n++ } })),
      );
      for (const res of replies) await expectEnvelope(res, 201);
    }
    expect(await storedRows(p.projectId)).toHaveLength(200);
  }, 30_000);
});
