// The OpenAPI document and the app agree: every documented operation is served, and every route
// the app serves is documented (its path and method); a route's documented parameters are those
// its contract validates. Every reply the other tests receive is checked against the document too
// (test/contract.ts).
import { describe, expect, it } from 'vitest';
import { openApiDocument, servedApp } from '../src/document.ts';

type Parameter = { name: string; in: string };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** A route's path as OpenAPI writes it: `/:id` is `/{id}`. */
const toOpenApi = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('C24: the document and the routes', () => {
  it('every served route is documented, and every documented operation is served', async () => {
    const doc = (await openApiDocument()) as Document;
    const served = new Set(
      servedApp()
        .routes.filter((r) => r.method !== 'ALL' && r.path !== '/*')
        .map((r) => `${r.method.toLowerCase()} ${toOpenApi(r.path)}`),
    );
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    expect([...served].sort()).toEqual([...described].sort());
    expect(served.size).toBeGreaterThan(20);
  });

  it('each path parameter of a documented path is a parameter of its operations', async () => {
    const doc = (await openApiDocument()) as Document;
    for (const [path, item] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of Object.entries(item)) {
        const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(inPath.sort(), `${method} ${path}`).toEqual([...names].sort());
      }
    }
  });
});
