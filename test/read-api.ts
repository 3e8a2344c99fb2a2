// The read API (C23–C25) as its tests call it: a project with a secret key, a request with the key,
// the data of a 200, rows inserted directly (many, quickly), and every page of a listing.
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { uuidv7 } from '../src/lib/ids.ts';
import { createKey } from '../src/ops/keys.ts';
import { insertSubmissions, type NewSubmission } from '../src/store/intake.ts';
import { asTool, seedProject, submit } from './helpers.ts';

export const BASE = 'https://forms.test/api/v1/submissions';

export type Item = { id: string; receivedAt: string; fields: Record<string, unknown>; spam: boolean };
export type ListData = { message: string; submissions: Item[]; nextCursor?: string };

export async function withSecret(spec: Parameters<typeof seedProject>[0] = {}) {
  const p = await seedProject(spec);
  const secret = await createKey(asTool(), p.projectId, 'secret');
  return { ...p, secret };
}

export function read(key: string, path = '', init: RequestInit & { headers?: Record<string, string> } = {}) {
  return submit({
    url: `${BASE}${path}`,
    key,
    method: init.method ?? 'GET',
    contentType: init.method === 'POST' ? 'application/json' : null,
    headers: init.headers ?? {},
    body: (init.body as string | undefined) ?? null,
  });
}

export async function okData<T>(res: Response): Promise<T> {
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
  const body = (await res.json()) as { data: T; status: unknown };
  expect(body.status).toEqual({ code: 200, message: 'OK' });
  return body.data;
}

/** Rows with ids and times in arrival order, inserted directly (many, quickly). */
export async function insertRows(
  projectId: string,
  count: number,
  make: (i: number) => Partial<NewSubmission> = () => ({}),
) {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const rows: NewSubmission[] = Array.from({ length: count }, (_, i) => ({
    id: uuidv7(base + i * 1000),
    projectId,
    data: JSON.stringify({ name: `n${i}` }),
    receivedAt: new Date(base + i * 1000).toISOString(),
    ...make(i),
  }));
  for (let i = 0; i < rows.length; i += 100) await insertSubmissions(env.DB, rows.slice(i, i + 100));
  return rows;
}

export async function listAll(key: string, query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const q = `${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const data = await okData<ListData>(await read(key, `?${q}`));
    ids.push(...data.submissions.map((s) => s.id));
    cursor = data.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 10_000);
  return { ids, pages };
}
