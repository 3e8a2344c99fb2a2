// C26, C27, C19: a project's delivery targets: signed webhooks (with their secrets, shown
// once) and notification addresses.
import type { Answer } from '../delivery/answer.ts';
import { sendContext } from '../delivery/attempt.ts';
import { hookChannel, isKindOf, type KindOf, kindsOf } from '../delivery/channels/index.ts';
import { sendVerification, VERIFY_HOURS } from '../delivery/consent.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import { randomToken, sha256Text } from '../lib/hex.ts';
import { newWebhookSecret } from '../lib/webhook-signature.ts';
import type { Db } from '../store/db.ts';
import { updateProjectSettings } from '../store/projects.ts';
import {
  addressAwaiting,
  addressOf,
  insertTarget,
  listTargets,
  mailto,
  newNotificationId,
  newWebhookId,
  removeTarget,
  rotateSigningSecret,
  setTargetEnabled,
  type Target,
  verifyAddress,
} from '../store/targets.ts';
import { isOperator, type Manager, otherPlaces, placesOf, recordChange, requireProject } from './context.ts';
import { parseEmailAddress, parseReplyToField } from './input.ts';

/** What a test's answer shows: its status (null: none), an error, an excerpt. */
const answerOf = (a: Answer) => ({ status: a.status, error: a.error, excerpt: a.excerpt });

/** At most this many webhooks per project, and this many notification addresses. */
export const MAX_WEBHOOKS = 10;
export const MAX_NOTIFICATIONS = 10;
/** After a rotation, the previous secret goes on signing for this long. */
const ROTATION_MS = 24 * 60 * 60 * 1000;

/** C26, C36: what a webhook may be: signed (Standard Webhooks), or a chat platform's (the channels). */
export const WEBHOOK_KINDS = kindsOf('webhook');
export type WebhookKind = KindOf<'webhook'>;

/**
 * C26: `https://` to a public host, or `http://localhost…` for local development (the worker
 * decides whether it sends: ALLOW_LOCAL_WEBHOOKS). C36: a chat hook at its platform's own address
 * (or, for local development, a stand-in on this machine). A hook that signs is a URL the owner
 * may see repeated; a chat hook's URL is a secret, never repeated in a refusal.
 */
function parseWebhookUrl(text: string, kind: WebhookKind): string {
  const channel = hookChannel(kind);
  const problem = channel.problem(text, true);
  if (problem !== undefined) {
    throw new InvalidInput(
      channel.signs ? `Invalid webhook URL '${text}': ${problem}` : `Invalid ${kind} URL: ${problem}`,
    );
  }
  return new URL(text).href;
}

/**
 * C36: a chat hook's URL is a secret (whoever has it can post to the channel): shown whole only
 * when added, else as its channel shows it.
 */
export const shownUrl = (kind: string, url: string) =>
  isKindOf('webhook', kind) ? hookChannel(kind).shown(url) : url;

/** A webhook's kind, as a row holds it. */
const hookKind = (w: Target): WebhookKind => (isKindOf('webhook', w.kind) ? w.kind : 'webhook');

const noWebhook = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no webhook '${id}'`, 'see: forms webhook list');

/** A webhook of the project, by its id. */
async function requireWebhook(m: Manager, projectId: string, id: string): Promise<Target> {
  const hook = (await listTargets(m.db, projectId, WEBHOOK_KINDS)).find((w) => w.id === id);
  if (hook === undefined) throw noWebhook(projectId, id);
  return hook;
}

/** A webhook as it is listed: never its secret, nor (C36) a chat hook's whole URL. */
export type WebhookView = {
  webhookId: string;
  kind: WebhookKind;
  url: string;
  state: 'active' | 'disabled';
  disabledAt: string | null;
  disabledReason: Target['disabledReason'];
  rotatingUntil: string | null;
  createdAt: string;
};

function webhookView(w: Target, now = Date.now()): WebhookView {
  return {
    webhookId: w.id,
    kind: hookKind(w),
    url: shownUrl(hookKind(w), w.url),
    state: w.disabledAt === null ? 'active' : 'disabled',
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    rotatingUntil: w.previousUntil !== null && Date.parse(w.previousUntil) > now ? w.previousUntil : null,
    createdAt: w.createdAt,
  };
}

/**
 * Adds a webhook; its signing secret is returned this once (C26). C36: a Slack or Discord hook has
 * no secret of ours: its URL is the secret, returned this once.
 */
export async function addWebhook(m: Manager, projectId: string, url: string, kind: WebhookKind = 'webhook') {
  const value = parseWebhookUrl(url, kind);
  const p = await requireProject(m, projectId);
  if ((await listTargets(m.db, p.id, WEBHOOK_KINDS)).length >= MAX_WEBHOOKS) {
    throw new Conflict(`Project '${p.id}' has ${MAX_WEBHOOKS} webhooks already: remove one first`);
  }
  const signs = hookChannel(kind).signs;
  const secret = signs ? newWebhookSecret() : '';
  const row = { id: newWebhookId(), projectId: p.id, url: value, secret, kind };
  await insertTarget(m.db, row);
  // A URL may carry a token in its path or query: the log keeps its origin only.
  await recordChange(m, p.id, 'webhook.add', { webhookId: row.id, kind, origin: new URL(row.url).origin });
  return { webhookId: row.id, kind, url: row.url, ...(signs ? { secret } : {}) };
}

export async function listWebhooks(m: Manager, projectId: string): Promise<WebhookView[]> {
  const p = await requireProject(m, projectId);
  return (await listTargets(m.db, p.id, WEBHOOK_KINDS)).map((w) => webhookView(w));
}

/** Removes a webhook and its deliveries. */
export async function removeWebhook(m: Manager, projectId: string, id: string): Promise<void> {
  const p = await requireProject(m, projectId);
  const hook = (await listTargets(m.db, p.id, WEBHOOK_KINDS)).find((w) => w.id === id);
  if (hook === undefined || !(await removeTarget(m.db, p.id, id, hook.kind))) throw noWebhook(p.id, id);
  await recordChange(m, p.id, 'webhook.remove', { webhookId: id });
}

/** A new signing secret, returned this once; the previous one signs beside it for 24 hours. */
export async function rotateSecret(m: Manager, projectId: string, id: string) {
  const p = await requireProject(m, projectId);
  const hook = await requireWebhook(m, p.id, id);
  if (!hookChannel(hookKind(hook)).signs) {
    throw new Conflict(
      `Webhook ${id} is a ${hook.kind} hook: it has no signing secret (its URL is its secret)`,
    );
  }
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + ROTATION_MS).toISOString();
  await rotateSigningSecret(m.db, p.id, id, secret, until);
  await recordChange(m, p.id, 'webhook.rotate-secret', { webhookId: id, previousUntil: until });
  return { webhookId: id, secret, previousUntil: until };
}

/**
 * C26: turns a webhook on (its cancelled deliveries can then go again) or off (they are cancelled).
 * Only a webhook (or a chat hook): an email address or the confirmation is not one (C37).
 */
export async function setWebhookEnabled(m: Manager, projectId: string, id: string, enabled: boolean) {
  const p = await requireProject(m, projectId);
  await requireWebhook(m, p.id, id);
  if (!(await setTargetEnabled(m.db, p.id, id, enabled))) throw noWebhook(p.id, id);
  await recordChange(m, p.id, enabled ? 'webhook.enable' : 'webhook.disable', { webhookId: id });
  return { projectId: p.id, webhookId: id, state: enabled ? ('active' as const) : ('disabled' as const) };
}

/**
 * Sends a test now (C26: a signed `webhook.test` event; C36: a chat's test message), from wherever
 * this runs, and gives the answer. The tool may send to plain http on this machine; the worker only
 * when ALLOW_LOCAL_WEBHOOKS says so.
 */
export async function testWebhook(
  m: Manager,
  projectId: string,
  id: string,
  options: { allowLocalHttp?: boolean; fetch?: typeof fetch } = {},
) {
  const p = await requireProject(m, projectId);
  const hook = await requireWebhook(m, p.id, id);
  const kind = hookKind(hook);
  const channel = hookChannel(kind);
  const allowLocalHttp = options.allowLocalHttp ?? true;
  // C26: a destination is checked before every request.
  const problem = channel.problem(hook.url, allowLocalHttp);
  if (problem !== undefined) throw new InvalidInput(`Webhook ${hook.id} cannot be sent to: ${problem}`);
  const messageId = `test_${crypto.randomUUID()}`;
  const ctx = sendContext(
    m.db,
    { allowLocalHttp, ...(options.fetch ? { fetch: options.fetch } : {}) },
    new Date(),
  );
  const answer = await channel.test(hook, p, messageId, ctx);
  return { webhookId: hook.id, url: shownUrl(kind, hook.url), messageId, ...answerOf(answer) };
}

/** C37: where a notification address stands: on, waiting for its owner's agreement, or its link expired. */
export type NotificationState = 'active' | 'waiting' | 'expired';

function notificationState(n: Target, now: string): NotificationState {
  if (n.disabledReason !== 'unverified') return 'active';
  return n.verifyUntil !== null && n.verifyUntil > now ? 'waiting' : 'expired';
}

/**
 * C27: an address that gets an email per accepted submission, and the Reply-To field, if given.
 * C37: added by anyone but the operator, it waits for its owner's agreement: it is sent one
 * verification mail (capped) and nothing else until its link is followed.
 */
export async function addNotification(m: Manager, projectId: string, address: string, replyToField?: string) {
  const to = parseEmailAddress(address);
  const p = await requireProject(m, projectId);
  const replyTo = replyToField === undefined ? p.replyToField : parseReplyToField(replyToField, p.fields);
  const existing = await listTargets(m.db, p.id, 'email');
  if (existing.some((n) => addressOf(n.url) === to))
    throw new Conflict(`Project '${p.id}' already emails ${to}`);
  if (existing.length >= MAX_NOTIFICATIONS) {
    throw new Conflict(
      `Project '${p.id}' has ${MAX_NOTIFICATIONS} email addresses already: remove one first`,
    );
  }
  const consent = !isOperator(m.actor);
  if (consent && m.mail === undefined) {
    throw new InvalidInput(
      'An address added by a project key must agree first, and email cannot be sent from here',
    );
  }
  const token = randomToken();
  const until = new Date(Date.now() + VERIFY_HOURS * 3_600_000).toISOString();
  const row = {
    id: newNotificationId(),
    projectId: p.id,
    kind: 'email' satisfies KindOf<'notification'>,
    url: mailto(to),
    secret: '',
    ...(consent ? { waiting: { verifyHash: await sha256Text(token), verifyUntil: until } } : {}),
  };
  await insertTarget(m.db, row);
  if (replyTo !== p.replyToField) await updateProjectSettings(m.db, p.id, { replyToField: replyTo });
  const verification =
    consent && m.mail !== undefined
      ? await sendVerification(m.db, otherPlaces(m), m.mail, p, to, token, until)
      : undefined;
  await recordChange(m, p.id, 'notification.add', {
    notificationId: row.id,
    address: to,
    replyToField: replyTo,
    ...(verification === undefined ? {} : { verification }),
  });
  return {
    notificationId: row.id,
    address: to,
    replyToField: replyTo,
    state: (consent ? 'waiting' : 'active') as NotificationState,
    ...(verification === undefined ? {} : { verification }),
  };
}

export async function listNotifications(m: Manager, projectId: string) {
  const p = await requireProject(m, projectId);
  const now = new Date().toISOString();
  const notifications = (await listTargets(m.db, p.id, 'email')).map((n) => ({
    notificationId: n.id,
    address: addressOf(n.url),
    state: notificationState(n, now),
    createdAt: n.createdAt,
  }));
  return { replyToField: p.replyToField, notifications };
}

/** C37: the project and address a verification link is for, while it works; NotFound after. */
export async function linkedAddress(m: Manager, token: string) {
  const hash = await sha256Text(token);
  const now = new Date().toISOString();
  // C41: the link names no place: each place's database is asked in turn (a mail's click, not a form post).
  const { at, found } = await firstPlace(m, (db) => addressAwaiting(db, hash, now));
  const p = await requireProject(at, found.projectId);
  return { projectName: p.name, address: addressOf(found.url) };
}

/** C41: the first place whose database finds it, with the manager of that place; else the link is dead. */
async function firstPlace<T>(m: Manager, find: (db: Db) => Promise<T | undefined>) {
  for (const [place, db] of placesOf(m)) {
    const found = await find(db);
    if (found !== undefined) return { at: { ...m, db, place }, found };
  }
  throw expiredLink();
}

const expiredLink = () =>
  new NotFound('This link does not work any more: it was used, it expired, or the address was removed');

/** C37: the address's owner agrees: from now on it gets the project's submissions. */
export async function agreeToAddress(m: Manager, token: string) {
  const hash = await sha256Text(token);
  const now = new Date().toISOString();
  const { at, found } = await firstPlace(m, (db) => verifyAddress(db, hash, now));
  const p = await requireProject(at, found.projectId);
  await recordChange(at, p.id, 'notification.verify', {
    notificationId: found.id,
    address: addressOf(found.url),
  });
  return { projectName: p.name, address: addressOf(found.url) };
}

/** Stops emailing an address (by its id or the address), and drops its deliveries. */
export async function removeNotification(m: Manager, projectId: string, which: string) {
  const p = await requireProject(m, projectId);
  const target = (await listTargets(m.db, p.id, 'email')).find(
    (n) => n.id === which || addressOf(n.url) === which,
  );
  if (target === undefined || !(await removeTarget(m.db, p.id, target.id, 'email'))) {
    throw new NotFound(`Project '${p.id}' has no email notification '${which}'`, 'see: forms notify list');
  }
  await recordChange(m, p.id, 'notification.remove', {
    notificationId: target.id,
    address: addressOf(target.url),
  });
  return { removed: target.id, address: addressOf(target.url) };
}
