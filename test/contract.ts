// The OpenAPI document must be true of the replies: every reply a test receives is checked
// against its operation in the document generated from the app (src/document.ts): the operation
// exists, documents the status, and the JSON body fits the response's schema. A reply and its
// description can no longer drift.
import { Validator } from '@cfworker/json-schema';
import { expect } from 'vitest';
import { openApiDocument } from '../src/document.ts';

type Json = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Json }> }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> };
};

let document: Promise<Document> | undefined;
const documentOnce = () => {
  document ??= openApiDocument() as Promise<Document>;
  return document;
};

/** The schema with every `#/components/schemas/…` reference replaced by what it names. */
function dereference(value: unknown, schemas: Record<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((v) => dereference(v, schemas));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return dereference(schemas[ref.slice('#/components/schemas/'.length)], schemas);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dereference(v, schemas)]));
}

/** The documented path a request's path is, literal paths before templates (`/erase` before `/{id}`). */
function pathOf(doc: Document, pathname: string): string | undefined {
  const paths = Object.keys(doc.paths).sort(
    (a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0),
  );
  return paths.find((p) =>
    new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(
      pathname,
    ),
  );
}

/**
 * Checks a reply against the document: its operation exists and documents its status; a JSON body
 * fits that response's schema; an HTML page is documented as one. Any other path must answer the
 * documented 404 of every path that is not one.
 */
export async function expectDocumented(request: Request, response: Response): Promise<void> {
  const doc = await documentOnce();
  const url = new URL(request.url);
  const path = pathOf(doc, url.pathname);
  const type = response.headers.get('Content-Type') ?? '';
  if (path === undefined) {
    expect(response.status, `${request.method} ${url.pathname} is no documented path: 404`).toBe(404);
    return;
  }
  const operation = doc.paths[path]?.[request.method.toLowerCase()];
  const where = `${request.method} ${path} → ${response.status}`;
  expect(operation, `${request.method} ${path} is documented`).toBeDefined();
  const documented = operation?.responses?.[String(response.status)];
  expect(documented, `${where} is documented`).toBeDefined();
  if (request.method === 'HEAD') return; // no body to check
  if (type.startsWith('application/json')) {
    const schema = documented?.content?.['application/json; charset=utf-8']?.schema;
    expect(schema, `${where} documents a JSON body`).toBeDefined();
    const body = await response.clone().json();
    const result = new Validator(
      dereference(schema, doc.components.schemas) as Json,
      '2020-12',
      false,
    ).validate(body);
    expect(result.errors, `${where}: the body fits its documented schema`).toEqual([]);
  } else if (type.startsWith('text/html')) {
    expect(documented?.content?.['text/html; charset=utf-8'], `${where} documents a page`).toBeDefined();
  }
}
