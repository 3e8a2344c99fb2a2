// C41: the places of the tests (the default database and `eu`, as wrangler.toml declares them): each
// one's database, a project made in eu, a form posted to a form address, and the operations' view
// of both places.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { submissions } from '../schema/tables.ts';
import { database } from '../src/store/db.ts';
import { fetchWorker } from './helpers.ts';
import { newProject } from './manage/helpers.ts';

export const home = () => database(env.DB);
export const eu = () => database(env.DB_EU);
export const rowsIn = async (db: ReturnType<typeof database>, projectId: string) =>
  db.select().from(submissions).where(eq(submissions.projectId, projectId));

export const FIELDS = [
  { name: 'email', type: 'string', required: true, rules: { format: 'email' } },
  { name: 'message', type: 'string' },
];
export const euProject = () => newProject(FIELDS, { region: 'eu' });

/** C29: an HTML form's fields posted to a form address, answered as JSON. */
export const postForm = (url: string, body: string) =>
  fetchWorker(
    new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
    }),
  );

/** The operations' view of both places, as the worker gives it. */
export const bothPlaces = (kind: 'tool' | 'operator') => ({
  db: home(),
  places: new Map([
    ['default', home()],
    ['eu', eu()],
  ]),
  actor: { kind },
});
