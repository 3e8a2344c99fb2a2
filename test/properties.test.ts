// Property-based, end to end through the worker: whatever arrives, the reply is an envelope and
// never a 5xx; whatever valid submission arrives, it is stored exactly.
import { env } from 'cloudflare:workers';
import { desc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '../schema/tables.ts';
import { REASON_PHRASES } from '../src/http/envelope.ts';
import { database } from '../src/store/db.ts';
import { SPEC_FIELDS, seedProject, submit } from './helpers.ts';

const RUNS = 1000;
const FIELDS = [...SPEC_FIELDS, { name: 'score', type: 'number', required: false } as const];

let project: { projectId: string; apiKey: string };
let guarded: { projectId: string; apiKey: string };
beforeAll(async () => {
  project = await seedProject({ fields: FIELDS });
  guarded = await seedProject({ origins: ['https://shop.example'] });
});

const anyValue = fc.oneof(
  { arbitrary: fc.string(), weight: 4 },
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);
const fieldNames = fc.oneof(
  fc.constantFrom(...FIELDS.map((f) => f.name), '__proto__', 'constructor'),
  fc.string(),
);

const validValue = {
  string: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  integer: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }),
  boolean: fc.boolean(),
};
const validBody = fc
  .record(Object.fromEntries(FIELDS.map((f) => [f.name, validValue[f.type as keyof typeof validValue]])), {
    requiredKeys: [],
  })
  .filter((o) => Object.keys(o).length > 0);

// Weighted so that most requests get past authentication and reach validation and storage.
const bodies = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary' }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''), weight: 1 },
  { arbitrary: fc.dictionary(fieldNames, anyValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)), weight: 4 },
  { arbitrary: validBody.map((o) => JSON.stringify(o)), weight: 3 },
  { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
  { arbitrary: fc.constant(`{"message":"${'x'.repeat(70_000)}"}`), weight: 1 },
);

const authorizations = fc.oneof(
  { arbitrary: fc.constant(() => `Bearer ${project.apiKey}`), weight: 8 },
  fc.constant(() => `bearer ${guarded.apiKey}`),
  fc.constant(() => 'Bearer edgeform_00000000000000000000000000000000'),
  fc.string().map((s) => () => s),
  fc.string().map((s) => () => `Bearer ${s}`),
  fc.constant(() => undefined),
);

const contentTypes = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/problem+json',
    ),
    weight: 8,
  },
  fc.constantFrom('text/plain', 'multipart/form-data'),
  fc.string(),
  fc.constant(undefined),
);

const origins = fc.option(fc.constantFrom('https://shop.example', 'https://evil.example', 'null'), {
  nil: undefined,
});

// C20: absent, a few reused keys (replays, 422s), or anything at all.
const idempotencyKeys = fc.option(fc.oneof(fc.constantFrom('k1', 'k2'), fc.string({ maxLength: 300 })), {
  nil: undefined,
});

// Header values that a fetch client can carry (no CR, LF or NUL, and Latin-1 only).
const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);

describe('properties', () => {
  it('random headers and bodies never give a 5xx or a reply outside the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        authorizations,
        contentTypes,
        origins,
        bodies,
        fc.constantFrom(...Array<string>(12).fill('POST'), 'GET', 'PUT', 'DELETE', 'OPTIONS'),
        idempotencyKeys,
        async (auth, contentType, origin, body, method, idempotencyKey) => {
          const headers: Record<string, string> = {};
          const authorization = auth();
          if (authorization !== undefined && headerSafe(authorization)) headers.Authorization = authorization;
          if (contentType !== undefined && headerSafe(contentType)) headers['Content-Type'] = contentType;
          if (origin !== undefined) headers.Origin = origin;
          if (idempotencyKey !== undefined && headerSafe(idempotencyKey))
            headers['Idempotency-Key'] = idempotencyKey;
          const res = await submit({
            method,
            headers,
            contentType: null,
            body: method === 'POST' ? body : null,
          });
          expect(res.status).toBeLessThan(500);
          if (method === 'OPTIONS') {
            expect(res.status).toBe(204);
            return;
          }
          expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
          const reply = (await res.json()) as {
            data: { message: unknown; error?: { message: unknown }; errors?: unknown[] };
            status: { code: number; message: string };
          };
          expect(Object.keys(reply).sort()).toEqual(['data', 'status']);
          expect(reply.status.code).toBe(res.status);
          expect(reply.status.message).toBe(REASON_PHRASES[res.status as keyof typeof REASON_PHRASES]);
          expect(typeof reply.data.message).toBe('string');
          if (res.status === 201) {
            expect(Object.keys(reply.data)).toEqual(['message']);
          } else if (reply.data.errors) {
            expect(reply.data.error).toBeUndefined();
            expect(reply.data.errors.length).toBeGreaterThan(0);
            for (const e of reply.data.errors) expect(typeof e).toBe('string');
          } else {
            expect(typeof reply.data.error?.message).toBe('string');
          }
          if (origin !== undefined) expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('a random valid body is answered 201 and stored exactly', async () => {
    const db = database(env.DB);
    await fc.assert(
      fc.asyncProperty(validBody, async (body) => {
        const sent = JSON.stringify(body);
        const res = await submit({ key: project.apiKey, body: sent });
        expect(res.status).toBe(201);
        const [row] = await db
          .select()
          .from(submissions)
          .where(eq(submissions.projectId, project.projectId))
          .orderBy(desc(submissions.id))
          .limit(1);
        expect(row?.data).toBe(sent);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe('C13 (property): an integer is judged on the number as written', () => {
  // JSON number texts: an optional minus, an int part, an optional fraction, an optional exponent.
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 20 });
  const numberText = fc
    .tuple(
      fc.boolean(),
      digits.map((d) => d.replace(/^0+(?=\d)/, '')),
      fc.option(digits, { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-'), fc.integer({ min: 0, max: 30 })), {
        nil: undefined,
      }),
    )
    .map(
      ([minus, int, frac, exp]) =>
        `${minus ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : `${exp[0]}${exp[1]}`}`,
    );

  it('C13: accepted as integer exactly when written as digits alone within ±(2^53−1); stored as that integer', async () => {
    await fc.assert(
      fc.asyncProperty(numberText, async (text) => {
        const res = await submit({ key: project.apiKey, body: `{"phone": ${text}}` });
        const whole = /^-?(?:0|[1-9][0-9]*)$/.test(text) && Math.abs(Number(text)) <= Number.MAX_SAFE_INTEGER;
        expect(res.status).toBe(whole ? 201 : 400);
        if (!whole) {
          expect(await res.json()).toMatchObject({
            data: { errors: ["Field 'phone' is not of type integer"] },
          });
        } else {
          const [last] = await database(env.DB)
            .select()
            .from(submissions)
            .where(eq(submissions.projectId, project.projectId))
            .orderBy(desc(submissions.id))
            .limit(1);
          // Digits within the safe range are stored as that very integer, never rounded.
          expect(BigInt(JSON.parse(last?.data ?? '{}').phone)).toBe(BigInt(text));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('C13: the same texts are all numbers to a number field, and nested numbers are never judged', async () => {
    await fc.assert(
      fc.asyncProperty(numberText, async (text) => {
        const finite = Number.isFinite(Number(text));
        const res = await submit({ key: project.apiKey, body: `{"score": ${text}}` });
        expect(res.status).toBe(finite ? 201 : 400);
      }),
      { numRuns: 100 },
    );
  });
});
