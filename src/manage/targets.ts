// C26, C27, C19: a project's delivery targets: signed webhooks (with their secrets, shown
// once) and notification addresses.
import type { TargetKind } from '../../schema/tables.ts';
import { postSigned, signingSecrets } from '../delivery/webhooks.ts';
import { destinationProblem } from '../lib/destinations.ts';
import { Conflict, InvalidInput, NotFound } from '../lib/faults.ts';
import { newWebhookSecret } from '../lib/webhook-signature.ts';
import { updateProjectSettings } from '../store/projects.ts';
import {
  addressOf,
  removeWebhook as deleteTarget,
  insertWebhook,
  listWebhooks as listAll,
  mailto,
  newNotificationId,
  newWebhookId,
  rotateWebhookSecret,
  setWebhookEnabled as switchTarget,
  type Webhook,
} from '../store/targets.ts';
import { type Manager, recordChange, requireProject } from './context.ts';
import { parseEmailAddress, parseReplyToField } from './input.ts';

/** At most this many webhooks per project, and this many notification addresses. */
export const MAX_WEBHOOKS = 10;
export const MAX_NOTIFICATIONS = 10;
/** After a rotation, the previous secret goes on signing for this long. */
const ROTATION_MS = 24 * 60 * 60 * 1000;

/**
 * C26: `https://` to a public host, or `http://localhost…` for local development (the worker
 * decides whether it sends: ALLOW_LOCAL_WEBHOOKS).
 */
function parseWebhookUrl(text: string): string {
  const problem = destinationProblem(text, true);
  if (problem !== undefined) throw new InvalidInput(`Invalid webhook URL '${text}': ${problem}`);
  return new URL(text).href;
}

const noWebhook = (projectId: string, id: string) =>
  new NotFound(`Project '${projectId}' has no webhook '${id}'`, 'see: forms webhook list');

/** A webhook of the project, by its id. */
async function requireWebhook(m: Manager, projectId: string, id: string): Promise<Webhook> {
  const hook = (await listAll(m.db, projectId)).find((w) => w.id === id);
  if (hook === undefined) throw noWebhook(projectId, id);
  return hook;
}

/** A webhook as it is listed: never its secret. */
export type WebhookView = {
  webhookId: string;
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
    url: w.url,
    state: w.disabledAt === null ? 'active' : 'disabled',
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    rotatingUntil: w.previousUntil !== null && Date.parse(w.previousUntil) > now ? w.previousUntil : null,
    createdAt: w.createdAt,
  };
}

/** Adds a webhook; its signing secret is returned this once (C26). */
export async function addWebhook(m: Manager, projectId: string, url: string) {
  const value = parseWebhookUrl(url);
  const p = await requireProject(m, projectId);
  if ((await listAll(m.db, p.id)).length >= MAX_WEBHOOKS) {
    throw new Conflict(`Project '${p.id}' has ${MAX_WEBHOOKS} webhooks already: remove one first`);
  }
  const row = { id: newWebhookId(), projectId: p.id, url: value, secret: newWebhookSecret() };
  await insertWebhook(m.db, row);
  // A URL may carry a token in its path or query: the log keeps its origin only.
  await recordChange(m, p.id, 'webhook.add', { webhookId: row.id, origin: new URL(row.url).origin });
  return { webhookId: row.id, secret: row.secret, url: row.url };
}

export async function listWebhooks(m: Manager, projectId: string): Promise<WebhookView[]> {
  const p = await requireProject(m, projectId);
  return (await listAll(m.db, p.id)).map((w) => webhookView(w));
}

/** Removes a webhook and its deliveries. */
export async function removeWebhook(m: Manager, projectId: string, id: string): Promise<void> {
  const p = await requireProject(m, projectId);
  if (!(await deleteTarget(m.db, p.id, id))) throw noWebhook(p.id, id);
  await recordChange(m, p.id, 'webhook.remove', { webhookId: id });
}

/** A new signing secret, returned this once; the previous one signs beside it for 24 hours. */
export async function rotateSecret(m: Manager, projectId: string, id: string) {
  const p = await requireProject(m, projectId);
  await requireWebhook(m, p.id, id);
  const secret = newWebhookSecret();
  const until = new Date(Date.now() + ROTATION_MS).toISOString();
  await rotateWebhookSecret(m.db, p.id, id, secret, until);
  await recordChange(m, p.id, 'webhook.rotate-secret', { webhookId: id, previousUntil: until });
  return { webhookId: id, secret, previousUntil: until };
}

/** C26: turns a webhook on (its cancelled deliveries can then go again) or off (they are cancelled). */
export async function setWebhookEnabled(m: Manager, projectId: string, id: string, enabled: boolean) {
  const p = await requireProject(m, projectId);
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
  // C26: a destination is checked before every request.
  const problem = destinationProblem(hook.url, options.allowLocalHttp ?? true);
  if (problem !== undefined) throw new InvalidInput(`Webhook ${hook.id} cannot be sent to: ${problem}`);
  const now = new Date();
  const messageId = `test_${crypto.randomUUID()}`;
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
  return { webhookId: hook.id, url: hook.url, messageId, ...answer };
}

/** C27: an address that gets an email per accepted submission, and the Reply-To field, if given. */
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
  const row = {
    id: newNotificationId(),
    projectId: p.id,
    kind: 'email' as TargetKind,
    url: mailto(to),
    secret: '',
  };
  await insertWebhook(m.db, row);
  if (replyTo !== p.replyToField) await updateProjectSettings(m.db, p.id, { replyToField: replyTo });
  await recordChange(m, p.id, 'notification.add', {
    notificationId: row.id,
    address: to,
    replyToField: replyTo,
  });
  return { notificationId: row.id, address: to, replyToField: replyTo };
}

export async function listNotifications(m: Manager, projectId: string) {
  const p = await requireProject(m, projectId);
  const notifications = (await listAll(m.db, p.id, 'email')).map((n) => ({
    notificationId: n.id,
    address: addressOf(n.url),
    createdAt: n.createdAt,
  }));
  return { replyToField: p.replyToField, notifications };
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
