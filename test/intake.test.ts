// The submission path's statements (src/store/intake.ts) are SQL on the binding, not Drizzle: here
// they are held to Drizzle's own statements over schema/tables.ts, so the two cannot drift apart.
// Any row the insert is given is stored exactly as Drizzle stores it; any project reads back as
// Drizzle's query of the same tables reads it.
import { env } from 'cloudflare:workers';
import { and, eq, isNull, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedOrigins, apiKeys, fields, projects, submissions, targets } from '../schema/tables.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { hashKey } from '../src/projects/keys.ts';
import { database } from '../src/store/db.ts';
import {
  findProjectByFormId,
  findProjectByKeyHash,
  insertSubmissions,
  type NewSubmission,
} from '../src/store/intake.ts';
import { addOrigin, findProject } from '../src/store/projects.ts';
import { seedProject } from './helpers.ts';

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const rowArb = fc.record({
  data: fc.json(),
  spam: optional(fc.boolean()),
  idempotencyKey: optional(fc.string({ minLength: 1, maxLength: 20 })),
  files: optional(fc.constantFrom(null, '["cv"]')),
  outbox: optional(fc.constantFrom(1 as const, null)),
  challenge: optional(fc.constantFrom('turnstile', null)),
});

/** A stored row without what tells the two copies apart (its id, its project, its key). */
async function storedAs(projectId: string) {
  const rows = await env.DB.prepare(
    'select * from submissions where project_id = ? order by received_at, data, idempotency_key',
  )
    .bind(projectId)
    .all<Record<string, unknown>>();
  return rows.results.map(({ id: _, project_id: __, ...rest }) => rest);
}

describe('the submission path’s statements equal Drizzle’s', () => {
  it('C17, C20, C26, C30, C35: any batch of rows is stored as Drizzle stores it, column for column', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 30 }), async (drafts) => {
        const ours = await seedProject();
        const theirs = await seedProject();
        const receivedAt = new Date().toISOString();
        // Idempotency-Keys unique within the batch, as a project's are.
        const seen = new Set<string>();
        const rows = drafts.map((d, i) => {
          const key =
            d.idempotencyKey !== undefined && !seen.has(d.idempotencyKey) ? d.idempotencyKey : undefined;
          if (key !== undefined) seen.add(key);
          const { idempotencyKey: _, ...rest } = d;
          // Only the columns the draft sets: an absent one is the column's default, for both.
          const set = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
          return {
            ...(set as Omit<NewSubmission, 'id' | 'projectId' | 'receivedAt'>),
            receivedAt,
            ...(key === undefined ? {} : { idempotencyKey: key, bodyHash: `h${i}` }),
          };
        });
        const made = (projectId: string): NewSubmission[] =>
          rows.map((r) => ({ ...r, id: uuidv7(), projectId }));
        expect(await insertSubmissions(env.DB, made(ours.projectId))).toEqual(rows.map(() => true));
        // Drizzle's insert of the same rows, one statement each (its statements bind every column).
        const db = database(env.DB);
        const [first, ...rest] = made(theirs.projectId).map((r) =>
          db.insert(submissions).values({ ...r, starred: false, searchPending: 1 }),
        );
        if (first !== undefined) await db.batch([first, ...rest]);
        expect(await storedAs(ours.projectId)).toEqual(await storedAs(theirs.projectId));
      }),
      { numRuns: 25 },
    );
  });

  it('C7, C15, C23, C26, C29: a project reads back as Drizzle’s query of the same tables reads it', async () => {
    const db = database(env.DB);
    /** The project as Drizzle reads it, by a key's hash or a form id. */
    async function drizzleRead(by: { keyHash: string } | { formId: string }) {
      const fieldList = sql<string>`(select json_group_array(json_object('name', ${fields.name}, 'type', ${fields.type}, 'required', ${fields.required} = 1, 'rules', json(${fields.rules}), 'when', json(${fields.when}))) from (select * from ${fields} where ${fields.projectId} = "projects"."id" order by ${fields.position}) as ${fields})`;
      const originList = sql<string>`(select json_group_array(${allowedOrigins.origin}) from ${allowedOrigins} where ${allowedOrigins.projectId} = "projects"."id")`;
      const active = sql<number>`exists (select 1 from ${targets} where ${targets.projectId} = "projects"."id" and ${targets.disabledAt} is null)`;
      const columns = { id: projects.id, fields: fieldList, origins: originList, hasTargets: active };
      const [row] =
        'keyHash' in by
          ? await db
              .select({ ...columns, keyKind: apiKeys.kind })
              .from(apiKeys)
              .innerJoin(projects, eq(projects.id, apiKeys.projectId))
              .where(and(eq(apiKeys.keyHash, by.keyHash), isNull(apiKeys.revokedAt)))
          : await db
              .select({ ...columns, keyKind: sql<string>`'publishable'` })
              .from(projects)
              .where(eq(projects.formId, by.formId));
      return row;
    }
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.webUrl().map((u) => new URL(u).origin),
          { maxLength: 3 },
        ),
        fc.boolean(),
        fc.boolean(),
        async (origins, withHook, hookDisabled) => {
          const p = await seedProject({
            fields: [
              { name: 'email', type: 'string', required: true, rules: { format: 'email', maxLength: 200 } },
              { name: 'age', type: 'integer', required: false, rules: { min: 18 } },
              { name: 'ok', type: 'boolean', required: false },
              // C45: a condition is read with the rules.
              { name: 'why', type: 'string', required: true, when: { field: 'ok', equals: true } },
            ],
          });
          for (const origin of origins) await addOrigin(db, p.projectId, origin);
          if (withHook) {
            await db.insert(targets).values({
              id: uuidv7(),
              projectId: p.projectId,
              url: 'https://hooks.example.com/x',
              secret: 'whsec_x',
              createdAt: new Date().toISOString(),
              ...(hookDisabled
                ? { disabledAt: new Date().toISOString(), disabledReason: 'manual' as const }
                : {}),
            });
          }
          const keyHash = await hashKey(p.apiKey);
          const formId = (await findProject(db, p.projectId))?.formId ?? '';
          for (const [ours, theirs] of [
            [await findProjectByKeyHash(env.DB, keyHash), await drizzleRead({ keyHash })],
            [await findProjectByFormId(env.DB, formId), await drizzleRead({ formId })],
          ] as const) {
            expect(theirs).toBeDefined();
            expect(ours?.id).toBe(theirs?.id);
            expect(ours?.keyKind).toBe(theirs?.keyKind);
            expect(ours?.hasTargets).toBe(theirs?.hasTargets === 1);
            expect(ours?.origins).toEqual(JSON.parse(theirs?.origins ?? ''));
            expect(ours?.fields.map((f) => f.name)).toEqual(
              (JSON.parse(theirs?.fields ?? '') as { name: string }[]).map((f) => f.name),
            );
            expect(ours?.hasTargets).toBe(withHook && !hookDisabled);
            expect(ours?.fields.find((f) => f.name === 'why')?.when).toEqual({ field: 'ok', equals: true });
            expect(ours?.fields.find((f) => f.name === 'ok')?.when).toBeUndefined();
          }
        },
      ),
      { numRuns: 10 },
    );
  });
});
