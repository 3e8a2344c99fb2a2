// Projects and what they own: fields, allowed origins, API keys (as hashes, C7): their
// administration (the key's look-up on the submission path is intake.ts's).
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { KeyKind, Project, UnknownFieldPolicy } from '../../schema/tables.ts';
import {
  allowedOrigins,
  apiKeys,
  deliveries,
  deliveryAttempts,
  drafts,
  fields,
  projects,
  searchTerms,
  submissions,
  targets,
} from '../../schema/tables.ts';
import type { FieldRules } from '../fields/catalogue.ts';
import { DISPLAY_MEMBERS, type DisplayMember, textMapColumn } from '../fields/display.ts';
import type { FieldDef } from '../fields/validation.ts';
import { prefixedId } from '../lib/ids.ts';
import { DEFAULT_THRESHOLD } from '../spam/settings.ts';
import { auditInsert, type NewAuditEntry } from './audit.ts';
import { type Db, storage } from './db.ts';
import { DEFAULT_PLACE, placeTag } from './places.ts';

// ---- Administration (used by `npm run dev`, and by the command-line tool) ----

export type ProjectSpec = {
  id?: string;
  /** C29: given only where a fixed address is wanted (the example project of `npm run dev`). */
  formId?: string;
  name: string;
  unknownFields?: UnknownFieldPolicy;
  fields: FieldDef[];
  origins?: string[];
  honeypot?: string | null;
  turnstileSecret?: string | null;
};

/** C44: the columns of a project's hosted page, one per setting. */
export type PageColumn =
  | 'pageEnabled'
  | 'pageLanguages'
  | 'pageTitle'
  | 'pageIntro'
  | 'pageThanks'
  | 'pageAccent'
  | 'pageTheme'
  | 'pageLogo'
  | 'pageTurnstileSiteKey'
  | 'pageSteps';

export type ProjectSettings = Partial<
  Pick<
    Project,
    | 'unknownFields'
    | 'honeypot'
    | 'turnstileSecret'
    | 'retentionDays'
    | 'replyToField'
    | 'thankYouUrl'
    | 'formId'
    | 'confirmField'
    | 'confirmSubject'
    | 'confirmBody'
    | 'confirmReplyTo'
    | 'confirmOpen'
    | 'spamMode'
    | 'spamThreshold'
    | 'spamSharing'
    | 'spamAllow'
    | 'spamBlock'
    | 'maxSubmissions'
    | 'opensAt'
    | 'closesAt'
    | 'closedText'
    | 'partialsKeepDays'
    | PageColumn
  >
>;

/** Changes a project's settings; returns whether the project exists. */
export async function updateProjectSettings(db: Db, projectId: string, settings: ProjectSettings) {
  const updated = await storage(() =>
    db.update(projects).set(settings).where(eq(projects.id, projectId)).returning({ id: projects.id }),
  );
  return updated.length > 0;
}

/** What D1 keeps of an API key (C7): its hash and the prefix shown to tell keys apart. */
export type KeyRow = { keyHash: string; displayPrefix: string; kind: KeyKind };

/**
 * C29: a project's form address, `f_`, its place's name and `_` (C41; none for the default place),
 * and 12 random base32 characters: not a key.
 */
export const newFormId = (place: string = DEFAULT_PLACE) => prefixedId(`f_${placeTag(place)}`);
/** A project's id, when none is given. */
export const newProjectId = () => prefixedId('p_');

/** Inserts a project with its fields, origins and first key, all or nothing (one D1 batch). */
export async function insertProject(
  db: Db,
  spec: ProjectSpec,
  key: KeyRow,
): Promise<{ projectId: string; formId: string }> {
  const projectId = spec.id ?? prefixedId('p_');
  const formId = spec.formId ?? newFormId();
  const now = new Date().toISOString();
  const origins = spec.origins ?? [];
  await storage(() =>
    db.batch([
      db.insert(projects).values({
        id: projectId,
        name: spec.name,
        unknownFields: spec.unknownFields ?? 'reject',
        honeypot: spec.honeypot ?? null,
        turnstileSecret: spec.turnstileSecret ?? null,
        formId,
        // C39: the calibrated scale's default (the column's is the old scale's).
        spamThreshold: DEFAULT_THRESHOLD,
        createdAt: now,
      }),
      ...spec.fields.map((f, position) => db.insert(fields).values({ projectId, ...fieldRow(f), position })),
      ...origins.map((origin) => db.insert(allowedOrigins).values({ projectId, origin })),
      db.insert(apiKeys).values({ ...key, projectId, createdAt: now }),
    ]),
  );
  return { projectId, formId };
}

export async function insertKey(db: Db, projectId: string, key: KeyRow): Promise<void> {
  await storage(() => db.insert(apiKeys).values({ ...key, projectId, createdAt: new Date().toISOString() }));
}

export async function findProject(db: Db, projectId: string) {
  const [project] = await storage(() => db.select().from(projects).where(eq(projects.id, projectId)));
  return project;
}

/** What the tool shows of a key: never the key, nor its hash (C7). */
const SHOWN_KEY_COLUMNS = {
  displayPrefix: apiKeys.displayPrefix,
  kind: apiKeys.kind,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

/** A project with everything it owns but its submissions, for `project show` (one D1 batch). */
export async function projectDetails(db: Db, projectId: string) {
  const [[project], projectFields, origins, keys] = await storage(() =>
    db.batch([
      db.select().from(projects).where(eq(projects.id, projectId)),
      db.select().from(fields).where(eq(fields.projectId, projectId)).orderBy(fields.position),
      db
        .select()
        .from(allowedOrigins)
        .where(eq(allowedOrigins.projectId, projectId))
        .orderBy(allowedOrigins.origin),
      db
        .select(SHOWN_KEY_COLUMNS)
        .from(apiKeys)
        .where(eq(apiKeys.projectId, projectId))
        .orderBy(apiKeys.createdAt),
    ]),
  );
  return project && { ...project, fields: projectFields, origins, keys };
}

/** C25: the projects that keep submissions for a limited number of days. */
export function projectsWithRetention(db: Db): Promise<{ id: string; retentionDays: number }[]> {
  return storage(async () => {
    const rows = await db
      .select({ id: projects.id, retentionDays: projects.retentionDays })
      .from(projects)
      .where(isNotNull(projects.retentionDays));
    return rows.flatMap((r) =>
      r.retentionDays === null ? [] : [{ id: r.id, retentionDays: r.retentionDays }],
    );
  });
}

export function listProjects(db: Db) {
  const count = (table: typeof fields | typeof apiKeys | typeof submissions, where = sql`1`) =>
    // Qualified by hand: unqualified, `id` would name the inner table's column in `submissions`.
    sql<number>`(select count(*) from ${table} where ${table.projectId} = "projects"."id" and ${where})`.mapWith(
      Number,
    );
  return storage(() =>
    db
      .select({
        id: projects.id,
        name: projects.name,
        createdAt: projects.createdAt,
        fields: count(fields),
        keys: count(apiKeys),
        submissions: count(submissions),
        // C34: what an inbox shows first: unread submissions (spam aside), and the latest arrival.
        unread: count(submissions, sql`read_at is null and spam = 0`),
        lastReceivedAt: sql<
          string | null
        >`(select max(received_at) from ${submissions} where ${submissions.projectId} = "projects"."id")`,
      })
      .from(projects)
      .orderBy(projects.createdAt, projects.id),
  );
}

/**
 * Everything the project owns goes with it, in one batch (no reliance on foreign-key pragmas),
 * and its audit entry (C32), if given, is written in the same batch: the log keeps it after the
 * project.
 */
export function deleteProject(db: Db, projectId: string, audit?: NewAuditEntry) {
  return storage(() =>
    db.batch([
      db
        .delete(deliveryAttempts)
        .where(
          inArray(
            deliveryAttempts.deliveryId,
            db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.projectId, projectId)),
          ),
        ),
      db.delete(deliveries).where(eq(deliveries.projectId, projectId)),
      db.delete(targets).where(eq(targets.projectId, projectId)),
      db.delete(searchTerms).where(eq(searchTerms.projectId, projectId)),
      db.delete(submissions).where(eq(submissions.projectId, projectId)),
      // C46: its drafts, which name it without a foreign key.
      db.delete(drafts).where(eq(drafts.projectId, projectId)),
      db.delete(apiKeys).where(eq(apiKeys.projectId, projectId)),
      db.delete(allowedOrigins).where(eq(allowedOrigins.projectId, projectId)),
      db.delete(fields).where(eq(fields.projectId, projectId)),
      db.delete(projects).where(eq(projects.id, projectId)),
      ...(audit === undefined ? [] : [auditInsert(db, audit)]),
    ]),
  );
}

/**
 * A field definition as its row stores it: the rules as JSON, or NULL (C28); C44: what it shows,
 * each map given as JSON (NULL when empty), and `multiline` (NULL when not said), and none that is
 * not given, so that a replaced field keeps what its new definition does not say.
 */
function fieldRow(field: FieldDef) {
  const hasRules = field.rules !== undefined && Object.keys(field.rules).length > 0;
  const display: Partial<Record<DisplayMember, string | null>> = {};
  for (const member of DISPLAY_MEMBERS) {
    const map = field[member];
    if (map !== undefined) display[member] = textMapColumn(map);
  }
  return {
    name: field.name,
    type: field.type,
    required: field.required,
    rules: hasRules ? JSON.stringify(field.rules) : null,
    ...display,
    ...(field.multiline === undefined ? {} : { multiline: field.multiline }),
    // C46: kept as multiline is, unless given (`null`: the first step).
    ...(field.step === undefined ? {} : { step: field.step }),
    // C45: part of what the field checks: a definition without one has none.
    when: field.when === undefined ? null : JSON.stringify(field.when),
    capture: field.capture ?? null,
  };
}

/** The rules of a field row, parsed (C28). */
export function parseRules(rules: string | null): FieldRules | undefined {
  return rules === null ? undefined : (JSON.parse(rules) as FieldRules);
}

/** Appends a field after the last one, in one statement (its position is computed by D1). */
export function addField(db: Db, projectId: string, field: FieldDef) {
  const next = sql<number>`(select coalesce(max(${fields.position}), -1) + 1 from ${fields} where ${fields.projectId} = ${projectId})`;
  return storage(() => db.insert(fields).values({ projectId, ...fieldRow(field), position: next }));
}

/**
 * C28: replaces a field's definition (type, required, rules), keeping its place, and (C44) what it
 * shows as far as the definition says; whether it existed.
 */
export async function setField(db: Db, projectId: string, field: FieldDef): Promise<boolean> {
  const { name: _, ...row } = fieldRow(field);
  const updated = await storage(() =>
    db
      .update(fields)
      .set(row)
      .where(and(eq(fields.projectId, projectId), eq(fields.name, field.name)))
      .returning({ name: fields.name }),
  );
  return updated.length > 0;
}

export async function removeField(db: Db, projectId: string, name: string): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(fields)
      .where(and(eq(fields.projectId, projectId), eq(fields.name, name)))
      .returning({ name: fields.name }),
  );
  return removed.length > 0;
}

export function addOrigin(db: Db, projectId: string, origin: string) {
  return storage(() => db.insert(allowedOrigins).values({ projectId, origin }));
}

export async function removeOrigin(db: Db, projectId: string, origin: string): Promise<boolean> {
  const removed = await storage(() =>
    db
      .delete(allowedOrigins)
      .where(and(eq(allowedOrigins.projectId, projectId), eq(allowedOrigins.origin, origin)))
      .returning({ origin: allowedOrigins.origin }),
  );
  return removed.length > 0;
}

export function listKeys(db: Db, projectId: string) {
  return storage(() =>
    db
      .select({ keyHash: apiKeys.keyHash, ...SHOWN_KEY_COLUMNS })
      .from(apiKeys)
      .where(eq(apiKeys.projectId, projectId))
      .orderBy(apiKeys.createdAt),
  );
}

/** Marks a key revoked; only an active key of this project changes. Returns whether one did. */
export async function revokeKey(db: Db, projectId: string, keyHash: string): Promise<boolean> {
  const revoked = await storage(() =>
    db
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(and(eq(apiKeys.keyHash, keyHash), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
      .returning({ keyHash: apiKeys.keyHash }),
  );
  return revoked.length > 0;
}
