import { env, exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { createProject, database } from '../src/store.ts';

it('smoke', async () => {
  const { apiKey } = await createProject(database(env.DB), {
    name: 'Example',
    fields: [
      { name: 'name', type: 'string', required: false },
      { name: 'phone', type: 'integer', required: false },
    ],
  });
  const res = await exports.default.fetch('https://x.test/api/v1/submit', {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'a', phone: 12 }),
  });
  console.log(res.status, [...res.headers], await res.text());
  const rows = await env.DB.prepare('select * from submissions').all();
  console.log(rows.results);
  expect(res.status).toBe(201);
});
