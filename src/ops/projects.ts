// C19: projects: create, list, show, delete. What a project shows is `project-view.ts`; its
// settings changed, `project-settings.ts`.
import { withoutEmpty } from '../fields/display.ts';
import { submissionJsonSchema } from '../fields/json-schema.ts';
import { parseFieldSpecs } from '../fields/spec.ts';
import type { FieldDef } from '../fields/validation.ts';
import { InvalidInput } from '../lib/faults.ts';
import type { Db } from '../store/db.ts';
import { forgetProject } from '../store/directory.ts';
import { DEFAULT_PLACE } from '../store/places.ts';
import {
  deleteProject as deleteAll,
  insertProject,
  listProjects as listAll,
  newFormId,
  newProjectId,
  type ProjectSettings,
  updateProjectSettings,
} from '../store/projects.ts';
import { changeEntry, homeOf, type Manager, placesOf, recordChange, requireProject } from './context.ts';
import { withConditions } from './fields.ts';
import {
  parseHoneypot,
  parseOrigin,
  parsePolicy,
  parseRetentionDays,
  parseThankYouUrl,
  parseTurnstileSecret,
} from './input.ts';
import { newKey } from './keys.ts';
import { atPlace, claimPlace } from './places.ts';
import { defaultLanguage, fieldDef, type ProjectView, projectView } from './project-view.ts';

export type NewProject = {
  name: string;
  /** Checked already, by the grammar of the caller's input (a field spec, or JSON). */
  fields: FieldDef[];
  origins?: string[] | undefined;
  unknownFields?: string | undefined;
  honeypot?: string | undefined;
  turnstileSecret?: string | undefined;
  thankYouUrl?: string | undefined;
  retentionDays?: number | string | undefined;
  /** C41: the place to make it in (absent: the default place). */
  region?: string | undefined;
  /** Fixed ids, for the example project of `npm run dev` only. */
  id?: string | undefined;
  formId?: string | undefined;
};

/**
 * Creates a project with its fields, origins and first key (publishable, shown once: only its hash
 * is stored, C7). Returns the key with what was created; the Turnstile secret is never given back,
 * only whether one is set.
 */
export async function createProject(m: Manager, input: NewProject) {
  if (input.name.trim() === '') throw new InvalidInput('A project needs a name');
  const seen = new Set<string>();
  for (const { name } of input.fields) {
    if (seen.has(name)) throw new InvalidInput(`Field '${name}' is given twice`);
    seen.add(name);
  }
  const spec = {
    name: input.name,
    fields: withConditions(input.fields).map(withoutEmpty),
    origins: [...new Set((input.origins ?? []).map(parseOrigin))],
    unknownFields: parsePolicy(input.unknownFields ?? 'reject'),
    honeypot: input.honeypot === undefined ? null : parseHoneypot(input.honeypot, input.fields),
  };
  const turnstileSecret =
    input.turnstileSecret === undefined ? null : parseTurnstileSecret(input.turnstileSecret);
  const settings: ProjectSettings = {};
  if (input.thankYouUrl !== undefined)
    settings.thankYouUrl = parseThankYouUrl(input.thankYouUrl, spec.origins);
  if (input.retentionDays !== undefined)
    settings.retentionDays = parseRetentionDays(String(input.retentionDays));
  const at = atPlace(m, input.region ?? DEFAULT_PLACE);
  // The first key is publishable, for pages (C23), made in the same write as the project; it and
  // the form address name the project's place (C41).
  const { apiKey, row } = await newKey('publishable', at.place);
  const projectId = input.id ?? newProjectId();
  await claimPlace(m, projectId, at.place);
  let formId: string;
  try {
    ({ formId } = await insertProject(
      at.db,
      {
        ...spec,
        turnstileSecret,
        id: projectId,
        formId: input.formId ?? newFormId(at.place),
      },
      row,
    ));
  } catch (error) {
    // Nothing made: the id is free again.
    if (at.place !== DEFAULT_PLACE) await forgetProject(homeOf(m), projectId);
    throw error;
  }
  const created = { projectId, formId, apiKey };
  if (Object.keys(settings).length > 0) await updateProjectSettings(at.db, created.projectId, settings);
  await recordChange(at, created.projectId, 'project.create', {
    name: spec.name,
    fields: spec.fields.map((f) => f.name),
    origins: spec.origins,
    ...(at.place === DEFAULT_PLACE ? {} : { place: at.place }),
  });
  return {
    ...created,
    place: at.place,
    ...spec,
    turnstile: turnstileSecret !== null,
    thankYouUrl: settings.thankYouUrl ?? null,
    retentionDays: settings.retentionDays ?? null,
  };
}

/**
 * A project from field specs as the tool writes them (`email:string:required`), made by the tool:
 * the example project of `npm run dev`, the benchmarks and the tests.
 */
export function createProjectFromSpecs(db: Db, input: Omit<NewProject, 'fields'> & { fields: string[] }) {
  return createProject({ db, actor: { kind: 'tool' } }, { ...input, fields: parseFieldSpecs(input.fields) });
}

/** Every project of every place (C41: each with its place), oldest first. */
export async function listProjects(m: Manager) {
  const lists = await Promise.all(
    [...placesOf(m)].map(async ([place, db]) => (await listAll(db)).map((p) => ({ ...p, place }))),
  );
  return lists.flat().sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function showProject(m: Manager, projectId: string): Promise<ProjectView> {
  return projectView(await requireProject(m, projectId), m.place);
}

/** C28: the project's submission as JSON Schema; C44: titled in its default language. */
export async function projectSchema(m: Manager, projectId: string) {
  const p = await requireProject(m, projectId);
  return submissionJsonSchema(p.fields.map(fieldDef), p.unknownFields, defaultLanguage(p));
}

/** Deletes the project and everything it owns, submissions and files included (C25, C30). */
export async function deleteProject(m: Manager, projectId: string): Promise<ProjectView> {
  const p = await requireProject(m, projectId);
  await deleteAll(m.db, p.id, changeEntry(m, p.id, 'project.delete', { name: p.name }));
  // C41: its id is free in every place again, and its old keys lead nowhere.
  await Promise.all([...placesOf(m).values()].map((db) => forgetProject(db, p.id)));
  return projectView(p, m.place);
}
