// C19: projects: create, list, show, change settings, delete.
import type { FieldType, KeyKind } from '../../schema/tables.ts';
import { submissionJsonSchema } from '../fields/json-schema.ts';
import { parseFieldSpecs } from '../fields/spec.ts';
import type { FieldDef } from '../fields/validation.ts';
import { InvalidInput } from '../lib/faults.ts';
import type { SpamSettings } from '../spam/settings.ts';
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
  parseRules,
  updateProjectSettings,
} from '../store/projects.ts';
import { listOf, spamColumns } from '../store/spam.ts';
import { insertTarget, listTargets, newConfirmationId, setTargetEnabled } from '../store/targets.ts';
import {
  changeEntry,
  homeOf,
  isOperator,
  type Manager,
  type ProjectDetails,
  placesOf,
  recordChange,
  requireProject,
} from './context.ts';
import {
  type ConfirmationInput,
  parseConfirmation,
  parseHoneypot,
  parseOrigin,
  parsePolicy,
  parseReplyToField,
  parseRetentionDays,
  parseSpamFilter,
  parseThankYouUrl,
  parseTurnstileSecret,
  type SpamFilterInput,
} from './input.ts';
import { newKey } from './keys.ts';
import { atPlace, claimPlace } from './places.ts';

/** A stored field as its definition (C28): name, type, required, and its rules when it has any. */
export function fieldDef(row: {
  name: string;
  type: FieldType;
  required: boolean;
  rules: string | null;
}): FieldDef {
  const rules = parseRules(row.rules);
  return {
    name: row.name,
    type: row.type,
    required: row.required,
    ...(rules === undefined ? {} : { rules }),
  };
}

/** A project as the tool shows it and the API returns it: never a key, a secret, or a hash. */
export type ProjectView = {
  id: string;
  name: string;
  /** C41: the place the project lives in: its database and bucket. */
  place: string;
  unknownFields: string;
  honeypot: string | null;
  /** C22: whether a Turnstile secret is set (the secret itself is write-only). */
  turnstile: boolean;
  retentionDays: number | null;
  replyToField: string | null;
  formId: string | null;
  thankYouUrl: string | null;
  /** C35: the confirmation to the submitter, or null when none is sent. */
  confirmation: {
    field: string;
    subject: string;
    body: string;
    replyTo: string | null;
    open: boolean;
  } | null;
  /** C39: the spam filter, and how many marks its classifier learnt each way. */
  spamFilter: SpamSettings & { learned: { ham: number; spam: number } };
  createdAt: string;
  fields: FieldDef[];
  origins: string[];
  keys: {
    prefix: string;
    kind: KeyKind;
    createdAt: string;
    revokedAt: string | null;
    lastUsedAt: string | null;
  }[];
};

export function projectView(p: ProjectDetails, place: string = DEFAULT_PLACE): ProjectView {
  return {
    id: p.id,
    name: p.name,
    place,
    unknownFields: p.unknownFields,
    honeypot: p.honeypot,
    turnstile: p.turnstileSecret !== null,
    retentionDays: p.retentionDays,
    replyToField: p.replyToField,
    formId: p.formId,
    thankYouUrl: p.thankYouUrl,
    confirmation:
      p.confirmField === null
        ? null
        : {
            field: p.confirmField,
            subject: p.confirmSubject ?? '',
            body: p.confirmBody ?? '',
            replyTo: p.confirmReplyTo,
            open: p.confirmOpen,
          },
    spamFilter: {
      mode: p.spamMode,
      threshold: p.spamThreshold,
      allow: listOf(p.spamAllow),
      block: listOf(p.spamBlock),
      learned: { ham: p.learnedHam, spam: p.learnedSpam },
    },
    createdAt: p.createdAt,
    fields: p.fields.map(fieldDef),
    origins: p.origins.map((o) => o.origin),
    keys: p.keys.map((k) => ({
      prefix: k.displayPrefix,
      kind: k.kind,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt,
      lastUsedAt: k.lastUsedAt,
    })),
  };
}

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
    fields: input.fields,
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

/** C28: the project's submission as JSON Schema. */
export async function projectSchema(m: Manager, projectId: string) {
  const p = await requireProject(m, projectId);
  return submissionJsonSchema(p.fields.map(fieldDef), p.unknownFields);
}

/** What may change of a project's settings; `null` clears one. */
export type ProjectChanges = {
  unknownFields?: string | undefined;
  honeypot?: string | null | undefined;
  turnstileSecret?: string | null | undefined;
  retentionDays?: number | string | null | undefined;
  replyToField?: string | null | undefined;
  thankYouUrl?: string | null | undefined;
  /** C35: the confirmation to the submitter; null stops it. */
  confirmation?: ConfirmationInput | null | undefined;
  /** C39: the spam filter's settings given; the others stay. */
  spamFilter?: SpamFilterInput | undefined;
};

/** Changes the settings given, each checked as when the project was made; returns the project after. */
export async function updateProject(
  m: Manager,
  projectId: string,
  changes: ProjectChanges,
): Promise<ProjectView> {
  const p = await requireProject(m, projectId);
  const settings: ProjectSettings = {};
  if (changes.unknownFields !== undefined) settings.unknownFields = parsePolicy(changes.unknownFields);
  if (changes.honeypot !== undefined) {
    settings.honeypot = changes.honeypot === null ? null : parseHoneypot(changes.honeypot, p.fields);
  }
  if (changes.turnstileSecret !== undefined) {
    settings.turnstileSecret =
      changes.turnstileSecret === null ? null : parseTurnstileSecret(changes.turnstileSecret);
  }
  if (changes.retentionDays !== undefined) {
    settings.retentionDays =
      changes.retentionDays === null ? null : parseRetentionDays(String(changes.retentionDays));
  }
  if (changes.replyToField !== undefined) {
    settings.replyToField =
      changes.replyToField === null ? null : parseReplyToField(changes.replyToField, p.fields);
  }
  if (changes.thankYouUrl !== undefined) {
    settings.thankYouUrl =
      changes.thankYouUrl === null
        ? null
        : parseThankYouUrl(
            changes.thankYouUrl,
            p.origins.map((o) => o.origin),
          );
  }
  if (changes.confirmation !== undefined)
    Object.assign(settings, await confirmationSettings(m, p, changes.confirmation));
  if (changes.spamFilter !== undefined)
    Object.assign(settings, spamColumns(parseSpamFilter(changes.spamFilter)));
  if (Object.keys(settings).length > 0) {
    await updateProjectSettings(m.db, p.id, settings);
    // The Turnstile secret is never recorded: only that it was set or cleared.
    const { turnstileSecret, ...shown } = settings;
    await recordChange(m, p.id, 'project.update', {
      ...shown,
      ...(turnstileSecret === undefined ? {} : { turnstile: turnstileSecret !== null }),
    });
  }
  return projectView({ ...p, ...settings }, m.place);
}

/**
 * C35: the confirmation's settings, and its target turned on (made the first time) or off. It is
 * sent only for a submission that passed the project's Turnstile challenge, so it needs a
 * Turnstile secret, unless the operator opens it (`open`: sent for any submission, a risk they
 * take). No project key may open it (nor a session made from one); `open` absent keeps it as it is.
 */
async function confirmationSettings(
  m: Manager,
  p: ProjectDetails,
  input: ConfirmationInput | null,
): Promise<ProjectSettings> {
  const [target] = await listTargets(m.db, p.id, 'confirmation');
  if (input === null) {
    if (target !== undefined) await setTargetEnabled(m.db, p.id, target.id, false);
    return {
      confirmField: null,
      confirmSubject: null,
      confirmBody: null,
      confirmReplyTo: null,
      confirmOpen: false,
    };
  }
  const settings = parseConfirmation(input, p.fields);
  const open = input.open ?? p.confirmOpen;
  if (open && !p.confirmOpen && !isOperator(m.actor)) {
    throw new InvalidInput(
      'Only the operator may send confirmations for submissions that passed no Turnstile challenge (open)',
    );
  }
  if (!open && p.turnstileSecret === null) {
    throw new InvalidInput(
      "A confirmation is sent only for a submission that passed Turnstile, so that a public form cannot be made to mail strangers: set the project's Turnstile secret first (allowed origins protect nothing against a script; or the operator opens it: open)",
    );
  }
  if (target === undefined) {
    await insertTarget(m.db, {
      id: newConfirmationId(),
      projectId: p.id,
      url: 'confirm:',
      secret: '',
      kind: 'confirmation',
    });
  } else if (target.disabledAt !== null) {
    await setTargetEnabled(m.db, p.id, target.id, true);
  }
  return { ...settings, confirmOpen: open };
}

/** Deletes the project and everything it owns, submissions and files included (C25, C30). */
export async function deleteProject(m: Manager, projectId: string): Promise<ProjectView> {
  const p = await requireProject(m, projectId);
  await deleteAll(m.db, p.id, changeEntry(m, p.id, 'project.delete', { name: p.name }));
  // C41: its id is free in every place again, and its old keys lead nowhere.
  await Promise.all([...placesOf(m).values()].map((db) => forgetProject(db, p.id)));
  return projectView(p, m.place);
}
