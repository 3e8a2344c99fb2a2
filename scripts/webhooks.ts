// `forms webhook …`, `forms notify …` and `forms deliveries …` (C26, C27): a project's webhooks and
// their signing secrets, its notification emails, and the deliveries with every attempt.
import type { Command } from 'commander';
import {
  type AttemptOutcome,
  attemptDelivery,
  postSigned,
  signingSecrets,
} from '../src/delivery/webhooks.ts';
import { destinationProblem } from '../src/lib/destinations.ts';
import { newWebhookSecret } from '../src/lib/webhook-signature.ts';
import type { Db } from '../src/store/db.ts';
import { findDeliveryToSend, requeueDelivery, submissionOf, writeOutbox } from '../src/store/deliveries.ts';
import { listAttempts, listDeliveries } from '../src/store/delivery-log.ts';
import { findSubmission } from '../src/store/submissions.ts';
import {
  addressOf,
  insertWebhook,
  listWebhooks,
  mailto,
  newNotificationId,
  newWebhookId,
  removeWebhook,
  rotateWebhookSecret,
  setWebhookEnabled,
} from '../src/store/targets.ts';
import { parseEmailAddress, parseReplyToField, UsageError } from './input.ts';
import { shown } from './printable.ts';

/** At most this many webhooks per project, and this many notification addresses. */
export const MAX_WEBHOOKS = 10;
export const MAX_NOTIFICATIONS = 10;
/** After a rotation, the previous secret goes on signing for this long. */
const ROTATION_MS = 24 * 60 * 60 * 1000;

type Global = { json?: boolean };
export type CommandContext = {
  withDb: <A extends unknown[]>(
    action: (db: Db, global: Global, ...args: A) => Promise<void>,
  ) => (...args: A) => Promise<void>;
  print: (global: Global, json: unknown, text: () => string) => void;
  requireProject: (
    db: Db,
    projectId: string,
  ) => Promise<{ id: string; replyToField: string | null; fields: { name: string; type: string }[] }>;
  updateProjectSettings: (
    db: Db,
    projectId: string,
    settings: { replyToField: string | null },
  ) => Promise<boolean>;
  table: (rows: string[][]) => string;
};

/**
 * C26: `https://` to a public host, or `http://localhost…` for local development (the worker decides
 * whether it sends).
 */
function parseWebhookUrl(text: string): string {
  // Allowed here; a deployed worker refuses to send plain http (ALLOW_LOCAL_WEBHOOKS).
  const problem = destinationProblem(text, true);
  if (problem !== undefined) throw new UsageError(`Invalid webhook URL '${text}': ${problem}`);
  return new URL(text).href;
}

/** What a redelivery came to, in a few words. */
function outcomeText(projectId: string, r: AttemptOutcome): string {
  switch (r.kind) {
    case 'delivered':
      return `delivered (${r.status})`;
    case 'retry':
      return `not yet (${r.status ?? r.error}); next attempt in ${r.delaySeconds} s`;
    case 'failed':
      return `failed (${r.status ?? r.error})`;
    case 'skipped': {
      const { claim } = r;
      if (claim.kind === 'busy') return `not sent: another attempt is in progress (until ${claim.until})`;
      if (claim.kind === 'disabled') {
        return `not sent: its webhook is disabled (enable it with: forms webhook enable ${projectId} <webhook-id>)`;
      }
      return claim.kind === 'gone' ? 'not sent: it no longer exists' : `not sent: it is ${claim.status}`;
    }
  }
}

const noWebhook = (projectId: string, id: string) =>
  new UsageError(`Project '${projectId}' has no webhook '${id}' (see: forms webhook list)`);

async function requireWebhook(db: Db, projectId: string, id: string) {
  const hook = (await listWebhooks(db, projectId)).find((w) => w.id === id);
  if (hook === undefined) throw noWebhook(projectId, id);
  return hook;
}

export function webhookCommands(
  cli: Command,
  { withDb, print, requireProject, table, updateProjectSettings }: CommandContext,
): void {
  const webhook = cli.command('webhook').description('signed webhooks (Standard Webhooks) per project');
  webhook
    .command('add <project> <url>')
    .description('a webhook: every accepted submission is POSTed to it, signed; prints its secret once')
    .action(
      withDb(async (db, global, projectId: string, url: string) => {
        const value = parseWebhookUrl(url);
        const p = await requireProject(db, projectId);
        const existing = await listWebhooks(db, p.id);
        if (existing.length >= MAX_WEBHOOKS) {
          throw new UsageError(`Project '${p.id}' has ${MAX_WEBHOOKS} webhooks already: remove one first`);
        }
        const row = { id: newWebhookId(), projectId: p.id, url: value, secret: newWebhookSecret() };
        await insertWebhook(db, row);
        print(global, { webhookId: row.id, secret: row.secret, url: row.url }, () =>
          [
            `Added webhook ${row.id} → ${row.url}`,
            `Signing secret (shown once; verify deliveries with it): ${row.secret}`,
          ].join('\n'),
        );
      }),
    );
  webhook
    .command('list <project>')
    .description('ids, URLs and states (never a secret)')
    .action(
      withDb(async (db, global, projectId: string) => {
        const p = await requireProject(db, projectId);
        const hooks = (await listWebhooks(db, p.id)).map((w) => ({
          webhookId: w.id,
          url: w.url,
          state: w.disabledAt === null ? 'active' : 'disabled',
          disabledAt: w.disabledAt,
          disabledReason: w.disabledReason,
          rotatingUntil:
            w.previousUntil !== null && Date.parse(w.previousUntil) > Date.now() ? w.previousUntil : null,
          createdAt: w.createdAt,
        }));
        print(global, { projectId: p.id, webhooks: hooks }, () =>
          hooks.length === 0
            ? `No webhooks for ${p.id}: forms webhook add ${p.id} <url>`
            : table([
                ['ID', 'URL', 'STATE', 'CREATED'],
                ...hooks.map((h) => [
                  h.webhookId,
                  h.url,
                  h.state === 'active'
                    ? h.rotatingUntil
                      ? `active (two secrets until ${h.rotatingUntil})`
                      : 'active'
                    : `disabled ${h.disabledAt} (${h.disabledReason === 'manual' ? 'by hand' : '410 Gone'})`,
                  h.createdAt,
                ]),
              ]),
        );
      }),
    );
  webhook
    .command('remove <project> <webhook-id>')
    .description('remove a webhook and its deliveries')
    .action(
      withDb(async (db, global, projectId: string, id: string) => {
        const p = await requireProject(db, projectId);
        if (!(await removeWebhook(db, p.id, id))) throw noWebhook(p.id, id);
        print(global, { projectId: p.id, removed: id }, () => `Removed webhook ${id} from ${p.id}.`);
      }),
    );
  webhook
    .command('rotate-secret <project> <webhook-id>')
    .description('a new signing secret, printed once; for 24 hours deliveries are signed with both')
    .action(
      withDb(async (db, global, projectId: string, id: string) => {
        const p = await requireProject(db, projectId);
        await requireWebhook(db, p.id, id);
        const secret = newWebhookSecret();
        const until = new Date(Date.now() + ROTATION_MS).toISOString();
        await rotateWebhookSecret(db, p.id, id, secret, until);
        print(global, { webhookId: id, secret, previousUntil: until }, () =>
          [
            `New signing secret for ${id} (shown once): ${secret}`,
            `Until ${until} every delivery is signed with both the new and the previous secret.`,
          ].join('\n'),
        );
      }),
    );
  for (const enabled of [true, false]) {
    webhook
      .command(`${enabled ? 'enable' : 'disable'} <project> <webhook-id>`)
      .description(
        enabled
          ? 'turn a disabled webhook on again (one that answered 410 Gone, say)'
          : 'turn a webhook off: nothing is sent to it, and its pending deliveries are cancelled',
      )
      .action(
        withDb(async (db, global, projectId: string, id: string) => {
          const p = await requireProject(db, projectId);
          if (!(await setWebhookEnabled(db, p.id, id, enabled))) throw noWebhook(p.id, id);
          print(global, { projectId: p.id, webhookId: id, state: enabled ? 'active' : 'disabled' }, () =>
            enabled
              ? [
                  `Enabled webhook ${id}: the next submissions are delivered to it.`,
                  `Its cancelled deliveries can be sent again: forms deliveries redeliver ${p.id} --failed`,
                ].join('\n')
              : `Disabled webhook ${id}: its pending deliveries are cancelled.`,
          );
        }),
      );
  }
  webhook
    .command('test <project> <webhook-id>')
    .description('send a webhook.test event now, from this machine, and print the answer')
    .action(
      withDb(async (db, global, projectId: string, id: string) => {
        const p = await requireProject(db, projectId);
        const hook = await requireWebhook(db, p.id, id);
        // C26: a destination is checked before every request, the tool's own included.
        const problem = destinationProblem(hook.url, true);
        if (problem !== undefined) throw new UsageError(`Webhook ${hook.id} cannot be sent to: ${problem}`);
        const now = new Date();
        const messageId = `test_${crypto.randomUUID()}`;
        const body = JSON.stringify({
          type: 'webhook.test',
          timestamp: now.toISOString(),
          data: { projectId: p.id, webhookId: hook.id },
        });
        const { status, error, excerpt } = await postSigned(hook.url, {
          id: messageId,
          body,
          secrets: signingSecrets(hook, now),
          now,
        });
        print(global, { webhookId: hook.id, messageId, status, excerpt, error }, () =>
          error === null
            ? `${shown(hook.url)} answered ${status}${excerpt ? `: ${shown(excerpt)}` : ''}`
            : `${shown(hook.url)}: ${shown(error)}`,
        );
      }),
    );

  const notify = cli
    .command('notify')
    .description('an email per accepted submission, through the send_email binding (C27)');
  notify
    .command('add <project> <address>')
    .description('email every accepted submission to this address')
    .option('--reply-to-field <field>', "the emails' Reply-To is the address in this string field")
    .action(
      withDb(async (db, global, projectId: string, address: string, opts: { replyToField?: string }) => {
        const to = parseEmailAddress(address);
        const p = await requireProject(db, projectId);
        const replyToField =
          opts.replyToField === undefined ? p.replyToField : parseReplyToField(opts.replyToField, p.fields);
        const existing = await listWebhooks(db, p.id, 'email');
        if (existing.some((n) => addressOf(n.url) === to)) {
          throw new UsageError(`Project '${p.id}' already emails ${to}`);
        }
        if (existing.length >= MAX_NOTIFICATIONS) {
          throw new UsageError(
            `Project '${p.id}' has ${MAX_NOTIFICATIONS} email addresses already: remove one first`,
          );
        }
        const row = {
          id: newNotificationId(),
          projectId: p.id,
          kind: 'email' as const,
          url: mailto(to),
          secret: '',
        };
        await insertWebhook(db, row);
        if (replyToField !== p.replyToField) await updateProjectSettings(db, p.id, { replyToField });
        print(global, { notificationId: row.id, address: to, replyToField }, () =>
          [
            `Added email notification ${row.id} → ${to}`,
            replyToField === null
              ? 'Reply-To: none (set one with --reply-to-field <field>)'
              : `Reply-To: the address in field '${replyToField}', when it holds one`,
          ].join('\n'),
        );
      }),
    );
  notify
    .command('list <project>')
    .description('the addresses that get an email per submission')
    .action(
      withDb(async (db, global, projectId: string) => {
        const p = await requireProject(db, projectId);
        const rows = (await listWebhooks(db, p.id, 'email')).map((n) => ({
          notificationId: n.id,
          address: addressOf(n.url),
          createdAt: n.createdAt,
        }));
        print(global, { projectId: p.id, replyToField: p.replyToField, notifications: rows }, () =>
          rows.length === 0
            ? `No email notifications for ${p.id}: forms notify add ${p.id} <address>`
            : [
                table([
                  ['ID', 'ADDRESS', 'CREATED'],
                  ...rows.map((r) => [r.notificationId, r.address, r.createdAt]),
                ]),
                `Reply-To field: ${p.replyToField ?? '(none)'}`,
              ].join('\n'),
        );
      }),
    );
  notify
    .command('remove <project> <id-or-address>')
    .description('stop emailing an address (by its id or the address), and drop its deliveries')
    .action(
      withDb(async (db, global, projectId: string, which: string) => {
        const p = await requireProject(db, projectId);
        const target = (await listWebhooks(db, p.id, 'email')).find(
          (n) => n.id === which || addressOf(n.url) === which,
        );
        if (target === undefined || !(await removeWebhook(db, p.id, target.id, 'email'))) {
          throw new UsageError(
            `Project '${p.id}' has no email notification '${which}' (see: forms notify list)`,
          );
        }
        const address = addressOf(target.url);
        print(
          global,
          { projectId: p.id, removed: target.id, address },
          () => `Removed ${address} (${target.id}) from ${p.id}.`,
        );
      }),
    );

  const deliveriesCommand = cli
    .command('deliveries')
    .description('webhook and email deliveries and their attempts');
  deliveriesCommand
    .command('list <project>')
    .description('each delivery: submission, target, attempts, last status, next attempt (the latest 100)')
    .option('--failed', 'only those that have failed for good')
    .option('--attempts', 'with every attempt of each')
    .action(
      withDb(async (db, global, projectId: string, opts: { failed?: boolean; attempts?: boolean }) => {
        const p = await requireProject(db, projectId);
        const rows = await listDeliveries(db, p.id, { failed: opts.failed === true });
        const attempts =
          opts.attempts || global.json
            ? await listAttempts(
                db,
                rows.map((r) => r.id),
              )
            : [];
        const withAttempts = rows.map((r) => ({
          ...r,
          attemptLog: attempts
            .filter((a) => a.deliveryId === r.id)
            .map(({ attempt, at, statusCode, error, durationMs }) => ({
              attempt,
              at,
              statusCode,
              error,
              durationMs,
            })),
        }));
        print(global, { projectId: p.id, deliveries: withAttempts }, () => {
          if (rows.length === 0) return `No ${opts.failed ? 'failed ' : ''}deliveries for ${p.id}.`;
          const lines = [
            table([
              ['DELIVERY', 'SUBMISSION', 'TARGET', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT'],
              ...rows.map((r) => [
                r.id,
                r.submissionId,
                r.kind === 'email' ? `email ${addressOf(r.url)}` : r.url,
                r.status,
                String(r.attempts),
                r.lastStatus === null ? (r.lastError ?? '—') : String(r.lastStatus),
                r.status === 'pending' ? (r.nextAttemptAt ?? '—') : '—',
              ]),
            ]),
          ];
          if (opts.attempts) {
            for (const d of withAttempts) {
              lines.push(`${d.id}:`);
              for (const a of d.attemptLog) {
                lines.push(
                  `  #${a.attempt} ${a.at} ${shown(String(a.statusCode ?? a.error))} (${a.durationMs} ms)`,
                );
              }
            }
          }
          return lines.join('\n');
        });
      }),
    );
  deliveriesCommand
    .command('redeliver <project> [delivery-id]')
    .description('attempt a delivery again now, from this machine (or every failed one with --failed)')
    .option('--failed', 'every delivery of the project that has failed')
    .action(
      withDb(async (db, global, projectId: string, id: string | undefined, opts: { failed?: boolean }) => {
        if ((id === undefined) === (opts.failed !== true)) {
          throw new UsageError('Give a delivery id or --failed, one of them');
        }
        const p = await requireProject(db, projectId);
        const ids =
          id !== undefined
            ? [id]
            : (await listDeliveries(db, p.id, { failed: true, limit: 1000 })).map((d) => d.id);
        const results: ({ deliveryId: string } & (AttemptOutcome | { kind: 'queued' }))[] = [];
        for (const deliveryId of ids) {
          let delivery = await findDeliveryToSend(db, deliveryId);
          // C26: a delivery of a submission still marked in the outbox has no row yet: it is
          // written here, as the queue consumer would.
          const submissionId = submissionOf(deliveryId);
          if (delivery === undefined && (await findSubmission(db, p.id, submissionId)) !== undefined) {
            await writeOutbox(db, [submissionId]);
            delivery = await findDeliveryToSend(db, deliveryId);
          }
          if (delivery === undefined || delivery.projectId !== p.id) {
            throw new UsageError(
              `Project '${p.id}' has no delivery '${deliveryId}' (see: forms deliveries list)`,
            );
          }
          if (delivery.kind === 'email') {
            // C27: only the worker has the send_email binding; the next sweep sends it.
            await requeueDelivery(db, p.id, deliveryId);
            results.push({ deliveryId, kind: 'queued' });
            continue;
          }
          // C26: claimed first, as the worker's attempts are: one attempt at a time, whoever makes it.
          const outcome = await attemptDelivery(db, deliveryId, { allowLocalHttp: true, again: true });
          results.push({ deliveryId, ...outcome });
        }
        print(global, { projectId: p.id, redelivered: results }, () =>
          results.length === 0
            ? `No failed deliveries for ${p.id}.`
            : results
                .map((r) =>
                  r.kind === 'queued'
                    ? `${r.deliveryId}: an email, queued again: the worker sends it within about three minutes`
                    : `${shown(r.deliveryId)}: ${shown(outcomeText(p.id, r))}`,
                )
                .join('\n'),
        );
      }),
    );
}
