// C26, C32: a project's deliveries over HTTP, as the tool's commands: listed with their attempts,
// and sent again from the worker, under its own rules for destinations.
import * as v from 'valibot';
import { config } from '../../config.ts';
import { getDelivery, listDeliveries, redeliver } from '../../ops/deliveries.ts';
import { type ManageRoutes, plural } from './define.ts';
import { MANAGE_ROUTES } from './table.ts';
import { DeliverySchema } from './views.ts';

const TAG = 'Targets and deliveries';

const DELIVERY_EXAMPLE = {
  id: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e.wh_6yq2m0d4k8sa',
  submissionId: '019ab0c2-7e41-7a3c-9d2e-5f1a2b3c4d5e',
  webhookId: 'wh_6yq2m0d4k8sa',
  kind: 'webhook',
  url: 'https://example.com/hooks/forms',
  status: 'failed',
  attempts: 10,
  lastStatus: 500,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-11-22T08:44:13.000Z',
  attemptLog: [
    {
      attempt: 1,
      at: '2026-11-22T08:44:14.000Z',
      statusCode: 500,
      error: null,
      durationMs: 120,
      excerpt: 'Internal error',
    },
  ],
};

/** What each delivery attempted now answered (an email is queued instead: only the queue sends it). */
const REDELIVERED = {
  status: 200 as const,
  description: 'What each attempt answered (an email is queued: only the queue sends it).',
  members: { results: v.array(v.looseObject({ deliveryId: v.string(), kind: v.string() })) },
  example: {
    message: '1 delivery attempted',
    results: [{ deliveryId: DELIVERY_EXAMPLE.id, kind: 'delivered', status: 200 }],
  },
};

/** How the worker sends a test or a redelivery: its own rules for destinations, its address, the stand-in. */
export const sending = (env: Env) => {
  const settings = config(env);
  return {
    allowLocalHttp: settings.ALLOW_LOCAL_WEBHOOKS,
    publicUrl: settings.PUBLIC_URL,
    integrationsApiBase: settings.INTEGRATIONS_API_BASE,
  };
};

export function deliveryRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listDeliveries,
    tag: TAG,
    summary: 'The latest 100 deliveries, oldest first, with their attempts; by state and target',
    access: 'project',
    reply: {
      status: 200,
      description: 'The deliveries.',
      members: { deliveries: v.array(DeliverySchema) },
      example: { message: '1 delivery', deliveries: [DELIVERY_EXAMPLE] },
    },
    handler: async ({ m, params, query }) => {
      const deliveries = await listDeliveries(m, params.projectId, query);
      return { message: plural(deliveries.length, 'delivery', 'deliveries'), data: { deliveries } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.redeliverFailed,
    tag: TAG,
    summary: 'Attempts every failed or cancelled delivery of the project again, now',
    access: 'project',
    reply: REDELIVERED,
    handler: async ({ c, m, params }) => {
      const results = await redeliver(m, params.projectId, { failed: true }, sending(c.env));
      return { message: `${plural(results.length, 'delivery', 'deliveries')} attempted`, data: { results } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.getDelivery,
    tag: TAG,
    summary: 'One delivery, with its attempts',
    access: 'project',
    reply: {
      status: 200,
      description: 'The delivery.',
      members: { delivery: DeliverySchema },
      example: { message: 'Delivery found', delivery: DELIVERY_EXAMPLE },
    },
    handler: async ({ m, params }) => ({
      message: 'Delivery found',
      data: { delivery: await getDelivery(m, params.projectId, params.deliveryId) },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.redeliver,
    tag: TAG,
    summary: 'Attempts one delivery again, now',
    access: 'project',
    reply: REDELIVERED,
    handler: async ({ c, m, params }) => {
      const results = await redeliver(m, params.projectId, { id: params.deliveryId }, sending(c.env));
      return { message: '1 delivery attempted', data: { results } };
    },
  });
}
