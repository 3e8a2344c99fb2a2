// The OpenAPI document generated from the routes is valid, documents every reply the service can
// give, with the catalogue's exact envelopes, and describes the field types by their own schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDocument, readingDocument } from '../../scripts/build-assets.ts';
import { ApiError } from '../../src/http/envelope.ts';
import { SUBMIT_PATH } from '../../src/http/paths.ts';
import * as replies from '../../src/http/replies.ts';

type Operation = {
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { FieldValue: { anyOf: unknown[] } } };
};

let doc: Document;
beforeAll(async () => {
  doc = (await generateDocument()) as Document;
});

const documented = (path: string, method: string) =>
  Object.keys(doc.paths[path]?.[method]?.responses ?? {}).map(Number);

describe('OpenAPI 3.1 document', () => {
  it('is valid OpenAPI 3.1 (checked by @readme/openapi-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('is what npm run build:assets wrote, for the worker to serve', () => {
    const served = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../assets/api/v1/openapi.json'), 'utf8'),
    );
    expect(served).toEqual(doc);
    // The reference names the project's own version, as its releases do (C42).
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect((doc as unknown as { info: { version: string } }).info.version).toBe(version);
  });

  it('documents every reply of src/http/replies.ts, with the exact envelope as an example', () => {
    const examples = new Set(
      Object.values(doc.paths).flatMap((path) =>
        Object.values(path).flatMap((operation) =>
          Object.values(operation.responses ?? {}).flatMap((r) =>
            Object.values(r.content ?? {}).flatMap((c) =>
              Object.values(c.examples ?? {}).map((e) => JSON.stringify(e.value)),
            ),
          ),
        ),
      ),
    );
    for (const [name, make] of Object.entries(replies)) {
      if (typeof make !== 'function' || name === 'notFound' || name === 'created') continue;
      // Replies with arguments are documented with an example argument: their status and summary must appear.
      const reply = (make as (...args: never[]) => unknown)('x' as never, 'GET' as never);
      if (!(reply instanceof ApiError)) continue;
      const summaries = [...examples].filter(
        (e) => e.includes(`"code":${reply.status}`) && e.includes(JSON.stringify(reply.summary)),
      );
      expect(summaries.length, `${name} (${reply.status} ${reply.summary})`).toBeGreaterThan(0);
    }
    expect(documented(SUBMIT_PATH, 'post')).toEqual([201, 400, 401, 403, 409, 413, 415, 422, 429, 500, 503]);
    expect(documented(SUBMIT_PATH, 'options')).toEqual([204]);
    for (const method of ['get', 'put', 'patch', 'delete'])
      expect(documented(SUBMIT_PATH, method)).toEqual([405]);
  });

  it('no reply escapes the catalogue: ApiError and envelope() are built only in src/http/replies.ts', () => {
    const src = join(import.meta.dirname, '../../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files).toContain(join('accept', 'steps.ts'));
    for (const file of files) {
      if (file === join('http', 'replies.ts') || file === join('http', 'envelope.ts')) continue;
      const text = readFileSync(join(src, file), 'utf8');
      expect(text, file).not.toMatch(/new ApiError\(|[^.\w]envelope\(/);
    }
  });

  it('the field types are the valibot schemas that validate submissions, as JSON Schema', () => {
    expect(doc.components.schemas.FieldValue.anyOf).toEqual([
      { title: 'string', type: 'string' },
      { title: 'integer', type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      { title: 'number', type: 'number' },
      { title: 'boolean', type: 'boolean' },
    ]);
  });

  it('C24: the reference page reads it without the operations that only refuse their method, said once instead', async () => {
    const reading = readingDocument(doc as never);
    const written = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../assets/reference/openapi.json'), 'utf8'),
    );
    expect(written).toEqual(reading);
    let kept = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const refusesOnly = Object.keys(operation.responses).join() === '405';
        expect(reading.paths[path]?.[method], `${method} ${path}`).toEqual(
          refusesOnly ? undefined : operation,
        );
        if (!refusesOnly) kept++;
      }
    }
    expect(Object.values(reading.paths).flatMap((item) => Object.keys(item))).toHaveLength(kept);
    expect(kept).toBeGreaterThan(50);
    expect(reading.info.description).toContain('A method a path does not list answers 405');
    expect(reading.info.description).toContain((doc as unknown as typeof reading).info.description);
  });
});
