// C26, C27, C19: a project's delivery targets: signed webhooks (with their secrets, shown
// once) and notification addresses.
import type { TargetKind } from '../../schema/tables.ts';
import type { Answer } from '../delivery/answer.ts';
import { chatTest } from '../delivery/chat.ts';
import { sendVerification, VERIFY_HOURS } from '../delivery/consent.ts';
import { postJson, postSigned, signingSecrets } from '../delivery/webhooks.ts';
import { chatDestinationProblem, destinationProblem } from '../lib/destinations.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import { randomToken, sha256Text } from '../lib/hex.ts';
import { newWebhookSecret } from '../lib/webhook-signature.ts';
import type { Db } from '../store/db.ts';
import { updateProjectSettings } from '../store/projects.ts';
import {
  addressAwaiting,
  addressOf,
  removeWebhook as deleteTarget,
  insertWebhook,
  listWebhooks as listAll,
  mailto,
  newNotificationId,
  newWebhookId,
  rotateWebhookSecret,
  setWebhookEnabled as switchTarget,
  verifyAddress,
  type Webhook,
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

/** C26, C36: what a webhook may be: signed (Standard Webhooks), or a Slack or Discord channel's. */
export const WEBHOOK_KINDS = ['webhook', 'slack', 'discord'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
const CHAT: readonly string[] = ['slack', 'discord'];

/**
 * C26: `https://` to a public host, or `http://localhost…` for local development (the worker
 * decides whether it sends: ALLOW_LOCAL_WEBHOOKS). C36: a Slack or Discord hook at its platform's
 * own address (or, for local development, a stand-in on this machine). The URL is never repeated
 * in a refusal: a chat hook's URL is a secret.
 */
function parseWebhookUrl(text: string, kind: WebhookKind): string {
  if (kind === 'webhook') {
    const problem = destinationProblem(text, true);
    if (problem !== undefined) throw new InvalidInput(`Invalid webhook URL '${text}': ${problem}`);
  } else {
    const problem = chatDestinationProblem(text, kind, true);
    if (problem !== undefined) throw new InvalidInput(`Invalid ${kind} URL: ${problem}`);
  }
  return new URL(text).href;
}

export function parseWebhookKind(text: string): WebhookKind {
  if (!(WEBHOOK_KINDS as readonly string[]).includes(text)) {
    throw new InvalidInput(`Unknown kind '${text}': use ${WEBHOOK_KINDS.join(', ')}`);
  }
  return text as WebhookKind;
}

/**
 * C36: a chat hook's URL is a secret (whoever has it can post to the channel): shown whole only
 * when added, else by its host and path's start and the token's last four characters.
 */
export function shownUrl(kind: string, url: string): string {
  if (!CHAT.includes(kind)) return url;
  const { origin, pathname } = new URL(url);
  const parts = pathname.split('/');
  return `${origin}${parts.slice(0, 3).join('/')}/…${pathname.slice(-4)}`;
}

const noWebhook = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no webhook '${id}'`, 'see: forms webhook list');

/** A webhook of the project, by its id. */
async function requireWebhook(m: Manager, projectId: string, id: string): Promise<Webhook> {
  const hook = (await listAll(m.db, projectId, WEBHOOK_KINDS)).find((w) => w.id === id);
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
  disabledReason: Webhook['disabledReason'];
  rotatingUntil: string | null;
  createdAt: string;
};

function webhookView(w: Webhook, now = Date.now()): WebhookView {
  return {
    webhookId: w.id,
    kind: w.kind as WebhookKind,
    url: shownUrl(w.kind, w.url),
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
  if ((await listAll(m.db, p.id, WEBHOOK_KINDS)).length >= MAX_WEBHOOKS) {
    throw new Conflict(`Project '${p.id}' has ${MAX_WEBHOOKS} webhooks already: remove one first`);
  }
  const secret = kind === 'webhook' ? newWebhookSecret() : '';
  const row = { id: newWebhookId(), projectId: p.id, url: value, secret, kind };
  await insertWebhook(m.db, row);
  // A URL may carry a token in its path or query: the log keeps its origin only.
  await recordChange(m, p.id, 'webhook.add', { webhookId: row.id, kind, origin: new URL(row.url).origin });
  return { webhookId: row.id, kind, url: row.url, ...(kind === 'webhook' ? { secret } : {}) };
}

export async function listWebhooks(m: Manager, projectId: string): Promise<WebhookView[]> {
  const p = await requireProject(m, projectId);
  return (await listAll(m.db, p.id, WEBHOOK_KINDS)).map((w) => webhookView(w));
}

/** Removes a webhook and its deliveries. */
export async function removeWebhook(m: Manager, projectId: string, id: string): Promise<void> {
  const p = await requireProject(m, projectId);
  const hook = (await listAll(m.db, p.id, WEBHOOK_KINDS)).find((w) => w.id === id);
  if (hook === undefined || !(await deleteTarget(m.db, p.id, id, hook.kind))) throw noWebhook(p.id, id);
  await recordChange(m, p.id, 'webhook.remove', { webhookId: id });
}

/** A new signing secret, returned this once; the previous one signs beside it for 24 hours. */
export async function rotateSecret(m: Manager, projectId: string, id: string) {
  const p = await requireProject(m, projectId);
  const hook = await requireWebhook(m, p.id, id);
  if (hook.kind !== 'webhook') {
    throw new Conflict(
      `Webhook ${id} is a ${hook.kind} hook: it has no signing secret (its URL is its secret)`,
    );
  }
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + ROTATION_MS).toISOString();
  await rotateWebhookSecret(m.db, p.id, id, secret, until);
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
  if (!(await switchTarget(m.db, p.id, id, enabled))) throw noWebhook(p.id, id);
  await recordChange(m, p.id, enabled ? 'webhook.enable' : 'webhook.disable', { webhookId: id });
  return { projectId: p.id, webhookId: id, state: enabled ? ('active' as const) : ('disabled' as const) };
}

/**
 * Sends a signed `webhook.test` event now, from wherever this runs, and gives the answer. The tool
 * may send to plain http on this machine; the worker only when ALLOW_LOCAL_WEBHOOKS says so.
 */
export async function testWebhook(
  m: Manager,
  projectId: string,
  id: string,
  options: { allowLocalHttp?: boolean; fetch?: typeof fetch } = {},
) {
  const fetchImpl = options.fetch;
  const p = await requireProject(m, projectId);
  const hook = await requireWebhook(m, p.id, id);
  const now = new Date();
  const messageId = `test_${crypto.randomUUID()}`;
  if (hook.kind === 'slack' || hook.kind === 'discord') {
    const problem = chatDestinationProblem(hook.url, hook.kind, options.allowLocalHttp ?? true);
    if (problem !== undefined) throw new InvalidInput(`Webhook ${hook.id} cannot be sent to: ${problem}`);
    const answer = await postJson(hook.url, chatTest(hook.kind, p.name), {}, fetchImpl);
    return { webhookId: hook.id, url: shownUrl(hook.kind, hook.url), messageId, ...answerOf(answer) };
  }
  // C26: a destination is checked before every request.
  const problem = destinationProblem(hook.url, options.allowLocalHttp ?? true);
  if (problem !== undefined) throw new InvalidInput(`Webhook ${hook.id} cannot be sent to: ${problem}`);
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: now.toISOString(),
    data: { projectId: p.id, webhookId: hook.id },
  });
  const answer = await postSigned(
    hook.url,
    { id: messageId, body, secrets: signingSecrets(hook, now), now },
    fetchImpl,
  );
  return { webhookId: hook.id, url: hook.url, messageId, ...answerOf(answer) };
}

/** C37: where a notification address stands: on, waiting for its owner's agreement, or its link expired. */
export type NotificationState = 'active' | 'waiting' | 'expired';

function notificationState(n: Webhook, now: string): NotificationState {
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
  const existing = await listAll(m.db, p.id, 'email');
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
    kind: 'email' as TargetKind,
    url: mailto(to),
    secret: '',
    ...(consent ? { waiting: { verifyHash: await sha256Text(token), verifyUntil: until } } : {}),
  };
  await insertWebhook(m.db, row);
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
  const notifications = (await listAll(m.db, p.id, 'email')).map((n) => ({
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
  const target = (await listAll(m.db, p.id, 'email')).find(
    (n) => n.id === which || addressOf(n.url) === which,
  );
  if (target === undefined || !(await deleteTarget(m.db, p.id, target.id, 'email'))) {
    throw new NotFound(`Project '${p.id}' has no email notification '${which}'`, 'see: forms notify list');
  }
  await recordChange(m, p.id, 'notification.remove', {
    notificationId: target.id,
    address: addressOf(target.url),
  });
  return { removed: target.id, address: addressOf(target.url) };
}
