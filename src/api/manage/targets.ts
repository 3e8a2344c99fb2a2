// C26, C27, C32: webhooks and email notifications over HTTP, as the tool's commands; a test is
// sent from the worker, under its own rules for destinations.
import * as v from 'valibot';
import { mailShown, PROVIDERS } from '../../delivery/mail-settings.ts';
import {
  addNotification,
  addWebhook,
  listNotifications,
  listWebhooks,
  removeNotification,
  removeWebhook,
  rotateSecret,
  setWebhookEnabled,
  testWebhook,
} from '../../ops/targets.ts';
import { type ManageRoutes, plural } from './define.ts';
import { sending } from './deliveries.ts';
import { NotificationStateSchema } from './schemas.ts';
import { MANAGE_ROUTES } from './table.ts';
import { WebhookSchema } from './views.ts';

const TAG = 'Targets and deliveries';

const WEBHOOK_EXAMPLE = {
  webhookId: 'wh_6yq2m0d4k8sa',
  kind: 'webhook',
  url: 'https://example.com/hooks/forms',
  state: 'active',
  disabledAt: null,
  disabledReason: null,
  rotatingUntil: null,
  createdAt: '2026-11-22T08:00:00.000Z',
};

export function targetRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listWebhooks,
    tag: TAG,
    summary: "The project's webhooks (never a secret)",
    access: 'project',
    reply: {
      status: 200,
      description: 'The webhooks.',
      members: { webhooks: v.array(WebhookSchema) },
      example: { message: '1 webhook', webhooks: [WEBHOOK_EXAMPLE] },
    },
    handler: async ({ m, params }) => {
      const webhooks = await listWebhooks(m, params.projectId);
      return { message: plural(webhooks.length, 'webhook'), data: { webhooks } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.addWebhook,
    tag: TAG,
    summary: 'Adds a signed webhook (C26); its secret is shown this once',
    access: 'project',
    reply: {
      status: 201,
      description: 'Added, with its signing secret (Standard Webhooks), shown this once.',
      members: {
        webhookId: v.string(),
        kind: v.string(),
        url: v.string(),
        secret: v.optional(
          v.pipe(v.string(), v.description('A signed webhook’s signing secret; a chat hook has none.')),
        ),
      },
      example: {
        message: 'Webhook added',
        webhookId: WEBHOOK_EXAMPLE.webhookId,
        secret: 'whsec_…',
        url: WEBHOOK_EXAMPLE.url,
      },
    },
    handler: async ({ m, params, body }) => ({
      status: 201,
      message: 'Webhook added',
      data: await addWebhook(m, params.projectId, body.url, body.kind),
      headers: { 'Cache-Control': 'no-store' },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.setWebhookEnabled,
    tag: TAG,
    summary: 'Enables or disables a webhook (disabled: its pending deliveries are cancelled)',
    access: 'project',
    reply: {
      status: 200,
      description: 'Its state after.',
      members: { projectId: v.string(), webhookId: v.string(), state: v.picklist(['active', 'disabled']) },
      example: {
        message: 'Webhook disabled',
        projectId: 'p_k3jd8s2mq0zx',
        webhookId: WEBHOOK_EXAMPLE.webhookId,
        state: 'disabled',
      },
    },
    handler: async ({ m, params, body }) => ({
      message: body.enabled ? 'Webhook enabled' : 'Webhook disabled',
      data: await setWebhookEnabled(m, params.projectId, params.webhookId, body.enabled),
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.removeWebhook,
    tag: TAG,
    summary: 'Removes a webhook and its deliveries',
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed.',
      members: { removed: v.string() },
      example: { message: 'Webhook removed', removed: WEBHOOK_EXAMPLE.webhookId },
    },
    handler: async ({ m, params }) => {
      await removeWebhook(m, params.projectId, params.webhookId);
      return { message: 'Webhook removed', data: { removed: params.webhookId } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.testWebhook,
    tag: TAG,
    summary: 'Sends a signed webhook.test event now, from the worker, and gives the answer',
    access: 'project',
    reply: {
      status: 200,
      description: "The receiver's answer: its status (null: none), an error, an excerpt of its body.",
      members: {
        webhookId: v.string(),
        url: v.string(),
        messageId: v.string(),
        status: v.nullable(v.number()),
        error: v.nullable(v.string()),
        excerpt: v.nullable(v.string()),
      },
      example: {
        message: 'Test sent',
        webhookId: WEBHOOK_EXAMPLE.webhookId,
        url: WEBHOOK_EXAMPLE.url,
        messageId: 'test_1b6f…',
        status: 204,
        error: null,
        excerpt: null,
      },
    },
    handler: async ({ c, m, params }) => ({
      message: 'Test sent',
      data: await testWebhook(m, params.projectId, params.webhookId, sending(c.env)),
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.rotateWebhookSecret,
    tag: TAG,
    summary: 'A new signing secret, shown this once; the previous one signs beside it for 24 hours',
    access: 'project',
    reply: {
      status: 200,
      description: 'The new secret.',
      members: { webhookId: v.string(), secret: v.string(), previousUntil: v.string() },
      example: {
        message: 'Secret rotated',
        webhookId: WEBHOOK_EXAMPLE.webhookId,
        secret: 'whsec_…',
        previousUntil: '2026-11-23T08:00:00.000Z',
      },
    },
    handler: async ({ m, params }) => ({
      message: 'Secret rotated',
      data: await rotateSecret(m, params.projectId, params.webhookId),
      headers: { 'Cache-Control': 'no-store' },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.listNotifications,
    tag: TAG,
    summary: 'The addresses emailed per accepted submission (C27), the Reply-To field, and who sends (C47)',
    access: 'project',
    reply: {
      status: 200,
      description: 'The addresses.',
      members: {
        replyToField: v.nullable(v.string()),
        // C47: who sends the deployment's mail: the provider's name and the sender, never its key.
        mail: v.object({ provider: v.picklist(PROVIDERS), from: v.nullable(v.string()) }),
        notifications: v.array(
          v.object({
            notificationId: v.string(),
            address: v.string(),
            state: NotificationStateSchema,
            createdAt: v.string(),
          }),
        ),
      },
      example: {
        message: '1 address',
        replyToField: 'email',
        mail: { provider: 'resend', from: 'forms@mail.example.com' },
        notifications: [
          {
            notificationId: 'em_2k4d8s0q1m3z',
            address: 'owner@example.com',
            state: 'active',
            createdAt: '2026-11-22T08:00:00.000Z',
          },
        ],
      },
    },
    handler: async ({ c, m, params }) => {
      const list = await listNotifications(m, params.projectId);
      return {
        message: plural(list.notifications.length, 'address', 'addresses'),
        data: { ...list, mail: mailShown(c.env) },
      };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.addNotification,
    tag: TAG,
    summary:
      'Emails an address per accepted submission (C27); one added with a secret key must agree first (C37)',
    description:
      "Added by the operator, the address is active at once. Added with a project's secret key (or a session made from one), it is `waiting`: it is sent one mail with a link (at most 2 a day to one address, 20 a day from one project), and nothing else until its owner follows it; the link works for 72 hours. `verification` says whether that mail went.",
    access: 'project',
    reply: {
      status: 201,
      description: 'Added.',
      members: {
        notificationId: v.string(),
        address: v.string(),
        replyToField: v.nullable(v.string()),
        state: NotificationStateSchema,
        verification: v.optional(v.string()),
      },
      example: {
        message: 'Notification added',
        notificationId: 'em_2k4d8s0q1m3z',
        address: 'owner@example.com',
        replyToField: 'email',
        state: 'waiting',
        verification: 'sent',
      },
    },
    handler: async ({ m, params, body }) => ({
      status: 201,
      message: 'Notification added',
      data: await addNotification(m, params.projectId, body.address, body.replyToField),
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.removeNotification,
    tag: TAG,
    summary: 'Stops emailing an address (by its id), and drops its deliveries',
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed.',
      members: { removed: v.string(), address: v.string() },
      example: { message: 'Notification removed', removed: 'em_2k4d8s0q1m3z', address: 'owner@example.com' },
    },
    handler: async ({ m, params }) => ({
      message: 'Notification removed',
      data: await removeNotification(m, params.projectId, params.notificationId),
    }),
  });
}
