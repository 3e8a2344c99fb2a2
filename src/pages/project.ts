// C44: the project a hosted page is of, found by its form address: one look-up for the page, its
// logo, and the answer to a post from it, so that all three judge alike whether there is a page.
import type { Context } from 'hono';
import { clientAddress, countFailedAuthentication, mayLookUpKeys } from '../auth/rate-limit.ts';
import { config } from '../config.ts';
import type { AppEnv } from '../http/env.ts';
import { projectView } from '../ops/project-view.ts';
import { FORM_ID, placeOfForm } from '../projects/cache.ts';
import { database } from '../store/db.ts';
import { projectIdOfForm } from '../store/hosted-pages.ts';
import { placeNamed } from '../store/places.ts';
import { projectDetails } from '../store/projects.ts';

/**
 * The project of a form address with its page on, as the page shows it, and its place; undefined
 * when the deployment serves no pages, the address names no form, or its project is moving or has
 * its page off.
 */
export async function hostedPageProject(c: Context<AppEnv>, formId: string) {
  if (!config(c.env).HOSTED_PAGES || !FORM_ID.test(formId)) return undefined;
  const place = placeNamed(c.env, placeOfForm(formId));
  if (place === undefined) return undefined;
  // C21: as a form post's look-up: an address over its limit of failures costs no query.
  if (!mayLookUpKeys(clientAddress(c))) return undefined;
  const db = database(place.d1);
  const projectId = await projectIdOfForm(db, formId);
  const details = projectId === undefined ? undefined : await projectDetails(db, projectId);
  if (details === undefined) {
    await countFailedAuthentication(c, c.env);
    return undefined;
  }
  // C41: a project being moved answers nowhere until it has arrived.
  if (details.movingSince !== null || !details.pageEnabled) return undefined;
  return { view: projectView(details, place.name), place };
}
