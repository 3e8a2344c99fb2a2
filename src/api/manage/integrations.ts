// C38: the management API's integrations: Google Sheets, Notion, Airtable and Telegram, added with
// their secret (never shown again but by its last four characters), listed, removed and tested.
import * as v from 'valibot';
import {
  addIntegration,
  listIntegrations,
  removeIntegration,
  setIntegrationEnabled,
  testIntegration,
} from '../../ops/integrations.ts';
import { type ManageRoutes, plural } from './define.ts';
import { sending } from './deliveries.ts';
import { MANAGE_ROUTES } from './table.ts';
import { IntegrationSchema } from './views.ts';

const TAG = 'Integrations';

const EXAMPLE = {
  integrationId: 'in_4t8kq2m9x0za',
  kind: 'google-sheets' as const,
  settings: { spreadsheetId: '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms', sheet: 'Submissions' },
  secret: '…9f3a',
  serviceAccount: 'forms@my-project.iam.gserviceaccount.com',
  state: 'active' as const,
  disabledAt: null,
  disabledReason: null,
  createdAt: '2026-11-25T09:00:00.000Z',
};

export function integrationRoutes(routes: ManageRoutes): void {
  routes.add({
    ...MANAGE_ROUTES.listIntegrations,
    tag: TAG,
    summary: "The project's integrations (each secret by its last four characters only)",
    access: 'project',
    reply: {
      status: 200,
      description: 'The integrations.',
      members: { integrations: v.array(IntegrationSchema) },
      example: { message: '1 integration', integrations: [EXAMPLE] },
    },
    handler: async ({ m, params }) => {
      const integrations = await listIntegrations(m, params.projectId);
      return { message: plural(integrations.length, 'integration'), data: { integrations } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.addIntegration,
    tag: TAG,
    summary: 'Adds Google Sheets, Notion, Airtable or Telegram as a target (C38)',
    access: 'project',
    reply: {
      status: 201,
      description: 'Added: from the next submission, each is delivered to it as to a webhook.',
      members: { integration: IntegrationSchema },
      example: { message: 'Integration added', integration: EXAMPLE },
    },
    handler: async ({ m, params, body }) => ({
      status: 201,
      message: 'Integration added',
      data: { integration: await addIntegration(m, params.projectId, body) },
      headers: { 'Cache-Control': 'no-store' },
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.setIntegrationEnabled,
    tag: TAG,
    summary: 'Enables or disables an integration (disabled: its pending deliveries are cancelled)',
    access: 'project',
    reply: {
      status: 200,
      description: 'Its state after.',
      members: {
        projectId: v.string(),
        integrationId: v.string(),
        state: v.picklist(['active', 'disabled']),
      },
      example: {
        message: 'Integration enabled',
        projectId: 'p_k3jd8s2mq0zx',
        integrationId: EXAMPLE.integrationId,
        state: 'active',
      },
    },
    handler: async ({ m, params, body }) => ({
      message: body.enabled ? 'Integration enabled' : 'Integration disabled',
      data: await setIntegrationEnabled(m, params.projectId, params.integrationId, body.enabled),
    }),
  });

  routes.add({
    ...MANAGE_ROUTES.removeIntegration,
    tag: TAG,
    summary: 'Removes an integration and its deliveries',
    access: 'project',
    reply: {
      status: 200,
      description: 'Removed.',
      members: { removed: v.string() },
      example: { message: 'Integration removed', removed: EXAMPLE.integrationId },
    },
    handler: async ({ m, params }) => {
      await removeIntegration(m, params.projectId, params.integrationId);
      return { message: 'Integration removed', data: { removed: params.integrationId } };
    },
  });

  routes.add({
    ...MANAGE_ROUTES.testIntegration,
    tag: TAG,
    summary: 'Sends a test row or message now, from the worker, and gives the answer',
    access: 'project',
    reply: {
      status: 200,
      description: "The service's answer: its status (null: none), an error, an excerpt of its body.",
      members: {
        integrationId: v.string(),
        kind: v.string(),
        ok: v.boolean(),
        status: v.nullable(v.number()),
        error: v.nullable(v.string()),
        excerpt: v.nullable(v.string()),
      },
      example: {
        message: 'Test sent',
        integrationId: EXAMPLE.integrationId,
        kind: 'google-sheets',
        ok: true,
        status: 200,
        error: null,
        excerpt: '{"spreadsheetId":"1Bxi…","updates":{"updatedRows":1}}',
      },
    },
    handler: async ({ c, m, params }) => {
      const result = await testIntegration(m, params.projectId, params.integrationId, sending(c.env));
      return { message: result.ok ? 'Test sent' : 'Test refused', data: result };
    },
  });
}
