// C25: erasure through the read API: every submission whose field holds a JSON value, in the key's
// project only, each JSON type matching only itself (numbers and booleans above all); the body's
// form and size.

import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectEnvelope, storedRows, submit, submitWithEnv } from './helpers.ts';
import { BASE, insertRows, okData, read, withSecret } from './read-api.ts';

describe('C25: erasure', () => {
  const erase = (key: string, body: unknown) =>
    read(key, '/erase', { method: 'POST', body: JSON.stringify(body) });

  it('C25: deletes exactly the submissions whose field holds that JSON value, in this project only', async () => {
    const a = await withSecret();
    const b = await withSecret();
    const values = ['ada@example.com', 'ADA@example.com', 42, '42', true, null, 'ada@example.com'];
    const rows = await insertRows(a.projectId, values.length, (i) => ({
      data: JSON.stringify({ email: values[i], note: 'ada@example.com' }),
    }));
    await insertRows(b.projectId, 1, () => ({ data: JSON.stringify({ email: 'ada@example.com' }) }));
    const data = await okData<{ message: string; erased: number }>(
      await erase(a.secret, { field: 'email', value: 'ada@example.com' }),
    );
    expect(data).toEqual({ message: 'Erased 2 submissions', erased: 2 });
    const left = (await storedRows(a.projectId)).map((r) => r.id);
    expect(left).toEqual(rows.filter((_, i) => values[i] !== 'ada@example.com').map((r) => r.id));
    expect(await storedRows(b.projectId)).toHaveLength(1);
    // Each JSON type matches only itself: 42 is not "42", true is not 1.
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: 42 }))).erased,
    ).toBe(1);
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: true }))).erased,
    ).toBe(1);
    expect(
      (await okData<{ erased: number }>(await erase(a.secret, { field: 'email', value: null }))).erased,
    ).toBe(1);
    expect((await storedRows(a.projectId)).map((r) => JSON.parse(r.data).email)).toEqual([
      'ADA@example.com',
      '42',
    ]);
  });

  it('C25 (property): erasure removes exactly the matching rows, whatever the field name and values', async () => {
    const p = await withSecret();
    const names = fc.constantFrom('email', 'a.b', 'we"ird', '$[0]', 'émail', '__proto__');
    const scalars = fc.oneof(
      fc.constantFrom('x', 'y', 1, 2, 1.5, true, false, null),
      fc.string({ maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(names, scalars), { minLength: 1, maxLength: 12 }),
        names,
        scalars,
        async (pairs, field, value) => {
          await read(p.secret, '/erase', {
            method: 'POST',
            body: JSON.stringify({ field: '__all__', value: 0 }),
          });
          for (const r of await storedRows(p.projectId)) {
            await read(p.secret, `/${r.id}`, { method: 'DELETE' });
          }
          const rows = await insertRows(p.projectId, pairs.length, (i) => {
            const [k, v] = pairs[i] ?? ['x', 'x'];
            return { data: JSON.stringify(Object.fromEntries([[k, v]])) };
          });
          const matches = (i: number) => pairs[i]?.[0] === field && Object.is(pairs[i]?.[1], value);
          const data = await okData<{ erased: number }>(await erase(p.secret, { field, value }));
          expect(data.erased).toBe(pairs.filter((_, i) => matches(i)).length);
          expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(
            rows.filter((_, i) => !matches(i)).map((r) => r.id),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it.each([
    ['not an object', [1, 2]],
    ['no field', { value: 'x' }],
    ['an empty field', { field: '', value: 'x' }],
    ['no value', { field: 'email' }],
    ['an object value', { field: 'email', value: { a: 1 } }],
    ['an extra member', { field: 'email', value: 'x', also: 1 }],
  ])('C25: a body with %s is 400', async (_, body) => {
    const p = await withSecret();
    await expectEnvelope(await erase(p.secret, body), 400, {
      message: 'Invalid request body',
      error: {
        message:
          'Body must be a JSON object {"field": "<name>", "value": <a string, number, boolean or null>}',
      },
    });
  });

  it('C25: an erasure body is read no further than 16 KiB: a larger one is 413 and the rest never read', async () => {
    const p = await withSecret();
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.length;
        if (pulled > 20 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    // Straight into the app: through the entry point, the runtime reports the stream it stops
    // reading (a passing run prints nothing of that kind).
    const res = await submitWithEnv(env, { url: `${BASE}/erase`, key: p.secret, body });
    await expectEnvelope(res, 413, {
      message: 'Request body too large',
      error: { message: 'Request body must not exceed 16384 bytes' },
    });
    expect(pulled).toBeLessThan(1024 * 1024);
  });

  it('C25: not JSON is 400, another media type 415, a publishable key 403', async () => {
    const p = await withSecret();
    await expectEnvelope(await read(p.secret, '/erase', { method: 'POST', body: '{nope' }), 400, {
      message: 'Invalid request body',
      error: { message: 'Request body is not valid JSON' },
    });
    const res = await submit({ url: `${BASE}/erase`, key: p.secret, contentType: 'text/plain', body: '{}' });
    await expectEnvelope(res, 415);
    await expectEnvelope(await erase(p.apiKey, { field: 'email', value: 'x' }), 403);
  });
});

describe('C25: erasure of numbers and booleans', () => {
  const erase = (key: string, body: unknown) =>
    read(key, '/erase', { method: 'POST', body: JSON.stringify(body) });
  const erased = async (key: string, field: string, value: unknown) =>
    (await okData<{ erased: number }>(await erase(key, { field, value }))).erased;

  it('C25: true is not 1 and false is not 0, either way round', async () => {
    const p = await withSecret();
    const values = [true, false, 1, 0, 1.0, '1', 'true'];
    for (const [value, expected] of [
      [1, [true, false, 0, '1', 'true']],
      [true, [false, 0, '1', 'true']],
      [0, [false, '1', 'true']],
      [false, ['1', 'true']],
    ] as const) {
      if (value === 1)
        await insertRows(p.projectId, values.length, (i) => ({ data: JSON.stringify({ v: values[i] }) }));
      await erased(p.secret, 'v', value);
      expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data).v)).toEqual(expected);
    }
  });

  it.each([1e21, -2.5e25, 1e300, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 2 ** 63, 5e-324, 0.1])(
    'C25: %s is erased, whatever type SQLite holds it as',
    async (n) => {
      const p = await withSecret();
      await insertRows(p.projectId, 2, (i) => ({ data: JSON.stringify({ n: i === 0 ? n : 7 }) }));
      expect(await erased(p.secret, 'n', n)).toBe(1);
      expect((await storedRows(p.projectId)).map((r) => JSON.parse(r.data).n)).toEqual([7]);
    },
  );

  it('C25 (property): a number erases every row whose field holds an equal number, and nothing else', async () => {
    const p = await withSecret();
    const special = fc.constantFrom(
      0,
      -0,
      1,
      -1,
      1e21,
      -2.5e25,
      1e300,
      -1e300,
      5e-324,
      1.7976931348623157e308,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53 - 1),
      -(2 ** 53),
      -(2 ** 53 + 2),
      2 ** 64,
      0.1,
      0.30000000000000004,
    );
    const numbers = fc.oneof(special, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const scalars = fc.oneof(numbers, fc.constantFrom(true, false, '0', '1'));
    await fc.assert(
      fc.asyncProperty(fc.array(scalars, { minLength: 1, maxLength: 8 }), numbers, async (values, value) => {
        for (const r of await storedRows(p.projectId)) await read(p.secret, `/${r.id}`, { method: 'DELETE' });
        // As a submission stores them: JSON.stringify of each value.
        const rows = await insertRows(p.projectId, values.length, (i) => ({
          data: JSON.stringify({ n: values[i] }),
        }));
        const stored = values.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
        const sent = JSON.parse(JSON.stringify(value)) as number;
        const matches = (i: number) => typeof stored[i] === 'number' && stored[i] === sent;
        expect(await erased(p.secret, 'n', sent)).toBe(stored.filter((_, i) => matches(i)).length);
        expect((await storedRows(p.projectId)).map((r) => r.id)).toEqual(
          rows.filter((_, i) => !matches(i)).map((r) => r.id),
        );
      }),
      { numRuns: 60 },
    );
  });
});
