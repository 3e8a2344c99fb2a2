// C38: a project's built-in integrations (the channels of the integration family): targets of
// the same delivery machinery as webhooks. Their secrets (a service account's key, a token) are
// write-only: kept as given, since the worker must use them, and shown only by their last four
// characters; never in the audit log.
import * as v from 'valibot';
import { sendContext } from '../delivery/attempt.ts';
import type { IntegrationChannel } from '../delivery/channels/channel.ts';
import { integrationChannel, isKindOf, type KindOf, kindsOf } from '../delivery/channels/index.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import {
  insertTarget,
  listTargets,
  newIntegrationId,
  removeTarget,
  setTargetEnabled,
  type Target,
} from '../store/targets.ts';
import { type Manager, recordChange, requireProject } from './context.ts';

/** At most this many integrations per project. */
export const MAX_INTEGRATIONS = 10;

export const INTEGRATION_KINDS = kindsOf('integration');
export type IntegrationKind = KindOf<'integration'>;

/** C38: what adds an integration, by its kind (the API's body, and the tool's options): each channel's entries. */
export const IntegrationInput = v.variant(
  'kind',
  INTEGRATION_KINDS.map((kind) =>
    v.strictObject({ kind: v.literal(kind), ...integrationChannel(kind).entries }),
  ) as [
    v.StrictObjectSchema<{ kind: v.LiteralSchema<IntegrationKind, undefined> } & v.ObjectEntries, undefined>,
  ],
  `kind must be one of ${INTEGRATION_KINDS.join(', ')}`,
);
export type IntegrationInput = { kind: IntegrationKind } & Record<string, unknown>;
type Parsed = { kind: IntegrationKind } & Record<string, unknown>;

/** The input checked, or one clear problem (never echoing a secret). */
export function parseIntegration(input: unknown): Parsed {
  const parsed = v.safeParse(IntegrationInput, input);
  if (parsed.success) return parsed.output as Parsed;
  const issue = parsed.issues[0];
  const path = issue?.path?.map((p) => String(p.key)).join('.');
  const message = issue?.message ?? 'Invalid integration';
  // Our own messages name their field; valibot's own ("Invalid type: …") are given the path.
  const last = path?.split('.').pop();
  throw new InvalidInput(
    path === undefined || last === undefined || message.includes(last) ? message : `${path}: ${message}`,
  );
}

/** An integration as it is listed: its settings, and its secret by its last four characters only. */
export type IntegrationView = {
  integrationId: string;
  kind: IntegrationKind;
  settings: Record<string, string>;
  /** The token's (or, for Google, the key id's) last four characters. */
  secret: string;
  /** Google Sheets: the service account's address, which the sheet is shared with. */
  serviceAccount?: string;
  state: 'active' | 'disabled';
  disabledAt: string | null;
  disabledReason: Target['disabledReason'];
  createdAt: string;
};

/** An integration's kind, as a row holds it (listed by the integrations' kinds only). */
const kindOf = (w: Target): IntegrationKind => {
  if (!isKindOf('integration', w.kind)) throw new Error(`'${w.kind}' is no integration`);
  return w.kind;
};

function integrationView(w: Target): IntegrationView {
  const kind = kindOf(w);
  const { last, serviceAccount } = integrationChannel(kind).shownSecret(w.secret);
  return {
    integrationId: w.id,
    kind,
    settings: JSON.parse(w.config ?? '{}') as Record<string, string>,
    secret: last,
    ...(serviceAccount === undefined ? {} : { serviceAccount }),
    state: w.disabledAt === null ? 'active' : 'disabled',
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
  };
}

const noIntegration = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no integration '${id}'`, 'see: forms integration list');

/** Adds an integration: checked (a Google key must sign), kept, and from the next submission delivered to. */
export async function addIntegration(
  m: Manager,
  projectId: string,
  input: unknown,
): Promise<IntegrationView> {
  const parsed = parseIntegration(input);
  const channel: IntegrationChannel = integrationChannel(parsed.kind);
  const problem = await channel.verify?.(parsed);
  if (problem !== undefined) throw new InvalidInput(problem);
  const p = await requireProject(m, projectId);
  if ((await listTargets(m.db, p.id, INTEGRATION_KINDS)).length >= MAX_INTEGRATIONS) {
    throw new Conflict(`Project '${p.id}' has ${MAX_INTEGRATIONS} integrations already: remove one first`);
  }
  const { config, secret, url } = channel.stored(parsed);
  const id = newIntegrationId();
  await insertTarget(m.db, {
    id,
    projectId: p.id,
    kind: parsed.kind,
    url,
    secret,
    config: JSON.stringify(config),
  });
  // The settings are no secret; the token and the key never reach the log.
  await recordChange(m, p.id, 'integration.add', { integrationId: id, kind: parsed.kind, ...config });
  const [row] = (await listTargets(m.db, p.id, INTEGRATION_KINDS)).filter((w) => w.id === id);
  if (row === undefined) throw noIntegration(p.id, id);
  return integrationView(row);
}

export async function listIntegrations(m: Manager, projectId: string): Promise<IntegrationView[]> {
  const p = await requireProject(m, projectId);
  return (await listTargets(m.db, p.id, INTEGRATION_KINDS)).map(integrationView);
}

async function requireIntegration(m: Manager, projectId: string, id: string) {
  const p = await requireProject(m, projectId);
  const row = (await listTargets(m.db, p.id, INTEGRATION_KINDS)).find((w) => w.id === id);
  if (row === undefined) throw noIntegration(p.id, id);
  return { p, row };
}

/** Removes an integration, with its deliveries. */
export async function removeIntegration(m: Manager, projectId: string, id: string): Promise<void> {
  const { p, row } = await requireIntegration(m, projectId, id);
  if (!(await removeTarget(m.db, p.id, id, row.kind))) throw noIntegration(p.id, id);
  await recordChange(m, p.id, 'integration.remove', { integrationId: id });
}

/**
 * Turns an integration on (its cancelled and failed deliveries can then be sent again with
 * `deliveries redeliver --failed`) or off (its pending deliveries are cancelled), as a webhook.
 */
export async function setIntegrationEnabled(m: Manager, projectId: string, id: string, enabled: boolean) {
  const { p } = await requireIntegration(m, projectId, id);
  if (!(await setTargetEnabled(m.db, p.id, id, enabled))) throw noIntegration(p.id, id);
  await recordChange(m, p.id, enabled ? 'integration.enable' : 'integration.disable', { integrationId: id });
  return { projectId: p.id, integrationId: id, state: enabled ? ('active' as const) : ('disabled' as const) };
}

/** How a test is sent: from the worker (its settings) or the tool (this machine). */
export type TestOptions = {
  allowLocalHttp: boolean;
  publicUrl?: string | undefined;
  integrationsApiBase?: string | undefined;
  fetch?: typeof fetch;
};

/**
 * Sends a test row or message now, as a submission would go (its first field says it is a test),
 * and gives the service's answer. A failure here disables nothing.
 */
export async function testIntegration(m: Manager, projectId: string, id: string, options: TestOptions) {
  const { p, row } = await requireIntegration(m, projectId, id);
  const now = new Date();
  const names = p.fields.map((f) => f.name);
  const first = p.fields.find((f) => f.type === 'string')?.name ?? names[0] ?? 'test';
  const test: DeliveryToSend = {
    id: `test_${crypto.randomUUID()}`,
    status: 'pending',
    attempts: 1,
    projectId: p.id,
    submissionId: `test_${crypto.randomUUID()}`,
    receivedAt: now.toISOString(),
    data: JSON.stringify({ [first]: 'A test from edge-forms: this can be deleted' }),
    files: null,
    targetId: row.id,
    kind: row.kind,
    url: row.url,
    secret: row.secret,
    previousSecret: null,
    previousUntil: null,
    disabledAt: null,
    disabledReason: null,
    leaseUntil: null,
    projectName: p.name,
    replyToField: null,
    confirmField: null,
    confirmSubject: null,
    confirmBody: null,
    confirmReplyTo: null,
    confirmOpen: false,
    challenge: null,
    choices: null,
    config: row.config,
    fieldSpecs: JSON.stringify(p.fields.map((f) => ({ name: f.name, type: f.type }))),
  };
  const kind = kindOf(row);
  const answer = await integrationChannel(kind).send(test, sendContext(m.db, options, now));
  return {
    integrationId: row.id,
    kind,
    ok: answer.ok,
    status: answer.status,
    error: answer.error,
    excerpt: answer.excerpt,
  };
}
