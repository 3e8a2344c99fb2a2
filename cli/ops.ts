// C19, C32: the operations the tool's commands call, two ways: on a database (`--local`, the
// default, or `--remote` through wrangler), each operation of src/ops called as itself; or on a
// deployed worker's management API (`--url`), each operation one request to the route that calls
// the same operation there. The results are the same either way.
import { MANAGE_ROUTES } from '../src/api/manage/table.ts';
import type { FieldDef } from '../src/fields/validation.ts';
import { checkLogo } from '../src/files/logo.ts';
import { encodeCursor } from '../src/http/cursor.ts';
import { InvalidInput } from '../src/lib/faults.ts';
import * as audit from '../src/ops/audit.ts';
import { atProject, type Manager } from '../src/ops/context.ts';
import * as deliveries from '../src/ops/deliveries.ts';
import * as exporting from '../src/ops/export.ts';
import * as fields from '../src/ops/fields.ts';
import * as page from '../src/ops/hosted-page.ts';
import * as inbox from '../src/ops/inbox.ts';
import { parseErasureValue } from '../src/ops/input.ts';
import * as integrations from '../src/ops/integrations.ts';
import * as keys from '../src/ops/keys.ts';
import * as move from '../src/ops/move.ts';
import * as places from '../src/ops/places.ts';
import * as projectSettings from '../src/ops/project-settings.ts';
import * as projects from '../src/ops/projects.ts';
import * as search from '../src/ops/search.ts';
import * as stats from '../src/ops/stats.ts';
import * as submissions from '../src/ops/submissions.ts';
import * as targets from '../src/ops/targets.ts';
import { displayPrefix, looksLikeKey } from '../src/projects/keys.ts';
import { type Input, transport } from './remote.ts';

// Each operation the tool calls, by the name its commands use.
const OPERATIONS = {
  createProject: projects.createProject,
  listProjects: projects.listProjects,
  showProject: projects.showProject,
  projectSchema: projects.projectSchema,
  updateProject: projectSettings.updateProject,
  deleteProject: projects.deleteProject,
  moveProject: move.moveProject,
  listPlaces: places.listPlaces,
  defineField: fields.defineField,
  removeField: fields.removeField,
  addOrigin: fields.addOrigin,
  removeOrigin: fields.removeOrigin,
  setLogo: page.setLogo,
  removeLogo: page.removeLogo,
  createKey: keys.createKey,
  listKeys: keys.listKeys,
  revokeKey: keys.revokeKey,
  addWebhook: targets.addWebhook,
  listWebhooks: targets.listWebhooks,
  removeWebhook: targets.removeWebhook,
  rotateSecret: targets.rotateSecret,
  setWebhookEnabled: targets.setWebhookEnabled,
  testWebhook: targets.testWebhook,
  addIntegration: integrations.addIntegration,
  listIntegrations: integrations.listIntegrations,
  removeIntegration: integrations.removeIntegration,
  setIntegrationEnabled: integrations.setIntegrationEnabled,
  testIntegration: integrations.testIntegration,
  addNotification: targets.addNotification,
  listNotifications: targets.listNotifications,
  removeNotification: targets.removeNotification,
  listDeliveries: deliveries.listDeliveries,
  redeliver: deliveries.redeliver,
  erase: submissions.erase,
  exportSubmissions: exporting.exportSubmissions,
  listInbox: inbox.listInbox,
  getSubmission: inbox.getSubmission,
  bulkSubmissions: inbox.bulkSubmissions,
  submissionStats: stats.submissionStats,
  auditLog: audit.auditLog,
  rebuildSearch: search.rebuildSearch,
};

type Operations = typeof OPERATIONS;
type Tail<F> = F extends (m: Manager, ...rest: infer A) => infer R ? (...rest: A) => R : never;
/** Every operation, given its arguments but the Manager. */
export type Ops = { [K in keyof Operations]: Tail<Operations[K]> };

/** The operations that concern no one project: every other is given its project's id first. */
const ACROSS_PROJECTS = new Set<string>(['createProject', 'listProjects', 'listPlaces']);

/** The operations on a database, as the tool; C41: each project's on the database of its place. */
export function localOps(m: Manager): Ops {
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, op]) => [
      name,
      async (...args: unknown[]) =>
        (op as (m: Manager, ...a: unknown[]) => unknown)(
          ACROSS_PROJECTS.has(name) ? m : await atProject(m, String(args[0])),
          ...args,
        ),
    ]),
  ) as Ops;
}

/**
 * The operations on a worker's management API, with the operator token (or a project's secret
 * key): each a request built from the route's entry in the API's own table (method, path, query
 * and body as its schemas take them). Each refusal becomes the fault the operation itself would
 * raise: 400 InvalidInput, 404 NotFound, 409 Conflict; anything else a RemoteRefusal with the
 * worker's words.
 */
export function remoteOps(base: string, token: string, fetchImpl: typeof fetch = fetch): Ops {
  const { send, call } = transport(base, token, fetchImpl);
  const member =
    <T>(name: string) =>
    (result: Record<string, unknown>) =>
      result[name] as T;
  const R = MANAGE_ROUTES;
  // C44: what a field shows goes as the tool has it: a member absent stays absent (kept), an empty
  // map (--no-label) goes as one (none).
  const fieldBody = ({ name: _, ...def }: FieldDef) => def;

  // The tool's words go to the worker as typed (`--unknown-fields sometimes`, `--retention 30d`), so
  // that the worker refuses them in its own sentence: those bodies are the schema's input by cast.
  const ops: Ops = {
    createProject: async (input) =>
      call(R.createProject, {
        body: {
          ...input,
          fields: input.fields.map((f) => ({ name: f.name, ...fieldBody(f) })),
          ...(typeof input.retentionDays === 'string' ? { retentionDays: Number(input.retentionDays) } : {}),
        } as Input<typeof R.createProject, 'body'>,
      }),
    listProjects: async () => member<never>('projects')(await call(R.listProjects)),
    showProject: async (projectId) =>
      member<never>('project')(await call(R.getProject, { params: { projectId } })),
    projectSchema: async (projectId) =>
      member<never>('schema')(await call(R.getProjectSchema, { params: { projectId } })),
    updateProject: async (projectId, changes) => {
      const days = changes.retentionDays;
      const body = {
        ...changes,
        ...(typeof days === 'string' && /^\d+$/.test(days) ? { retentionDays: Number(days) } : {}),
      } as Input<typeof R.updateProject, 'body'>;
      return member<never>('project')(await call(R.updateProject, { params: { projectId }, body }));
    },
    listPlaces: async () => member<never>('places')(await call(R.listPlaces)),
    moveProject: async (projectId, to) =>
      (await call(R.moveProject, { params: { projectId }, body: { to } })) as never,
    deleteProject: async (projectId) =>
      member<never>('project')(await call(R.deleteProject, { params: { projectId } })),
    defineField: async (projectId, def, mode) => {
      const headers: Record<string, string> =
        mode === 'add' ? { 'If-None-Match': '*' } : mode === 'replace' ? { 'If-Match': '*' } : {};
      const { added, project } = await call<{ added: boolean; project?: { fields: FieldDef[] } }>(
        R.defineField,
        { params: { projectId, name: def.name }, body: fieldBody(def), headers },
      );
      const field = project?.fields.find((f) => f.name === def.name) ?? def;
      return { added, field };
    },
    removeField: async (projectId, name) => {
      await call(R.removeField, { params: { projectId, name } });
    },
    addOrigin: async (projectId, origin) =>
      member<string>('origin')(await call(R.addOrigin, { params: { projectId }, body: { origin } })),
    removeOrigin: async (projectId, origin) =>
      member<string>('origin')(await call(R.removeOrigin, { params: { projectId, origin } })),
    setLogo: async (projectId, bytes, type) => {
      // C44: checked here first, as the operation checks it, so that a file that will not do is
      // never sent (and is refused in the same sentence).
      await checkLogo(bytes, type);
      const raw = { bytes, type };
      return member<never>('project')(await call(R.setPageLogo, { params: { projectId }, raw }));
    },
    removeLogo: async (projectId) =>
      member<never>('project')(await call(R.removePageLogo, { params: { projectId } })),
    createKey: async (projectId, kind) =>
      member<string>('key')(await call(R.createKey, { params: { projectId }, body: { kind } })),
    listKeys: async (projectId) => member<never>('keys')(await call(R.listKeys, { params: { projectId } })),
    revokeKey: async (projectId, given) => {
      // C19: a whole key never leaves this machine in a URL.
      if (looksLikeKey(given)) {
        throw new InvalidInput(
          `Give the key's prefix as \`key list\` shows it (${displayPrefix(given)}), not the whole key: a command line is kept in shell history and logs`,
        );
      }
      const prefix = given.replace(/…$/, '');
      return member<string>('revoked')(await call(R.revokeKey, { params: { projectId, prefix } }));
    },
    addWebhook: async (projectId, url, kind) =>
      call(R.addWebhook, { params: { projectId }, body: { url, ...(kind === undefined ? {} : { kind }) } }),
    listWebhooks: async (projectId) =>
      member<never>('webhooks')(await call(R.listWebhooks, { params: { projectId } })),
    removeWebhook: async (projectId, webhookId) => {
      await call(R.removeWebhook, { params: { projectId, webhookId } });
    },
    rotateSecret: async (projectId, webhookId) =>
      call(R.rotateWebhookSecret, { params: { projectId, webhookId } }),
    setWebhookEnabled: async (projectId, webhookId, enabled) =>
      call(R.setWebhookEnabled, { params: { projectId, webhookId }, body: { enabled } }),
    // Sent from the worker: its own rules say where it may send.
    testWebhook: async (projectId, webhookId) => call(R.testWebhook, { params: { projectId, webhookId } }),
    addIntegration: async (projectId, input) =>
      member<never>('integration')(
        await call(R.addIntegration, { params: { projectId }, body: input as never }),
      ),
    listIntegrations: async (projectId) =>
      member<never>('integrations')(await call(R.listIntegrations, { params: { projectId } })),
    removeIntegration: async (projectId, integrationId) => {
      await call(R.removeIntegration, { params: { projectId, integrationId } });
    },
    setIntegrationEnabled: async (projectId, integrationId, enabled) =>
      call(R.setIntegrationEnabled, { params: { projectId, integrationId }, body: { enabled } }),
    // Sent from the worker: its own settings say where.
    testIntegration: async (projectId, integrationId) =>
      call(R.testIntegration, { params: { projectId, integrationId } }),
    addNotification: async (projectId, address, replyToField) =>
      call(R.addNotification, {
        params: { projectId },
        body: { address, ...(replyToField === undefined ? {} : { replyToField }) },
      }),
    listNotifications: async (projectId) => call(R.listNotifications, { params: { projectId } }),
    removeNotification: async (projectId, notificationId) =>
      call(R.removeNotification, { params: { projectId, notificationId } }),
    listDeliveries: async (projectId, options = {}) =>
      member<never>('deliveries')(
        await call(R.listDeliveries, { params: { projectId }, query: { ...options } }),
      ),
    redeliver: async (projectId, which) =>
      member<never>('results')(
        'id' in which
          ? await call(R.redeliver, { params: { projectId, deliveryId: which.id } })
          : await call(R.redeliverFailed, { params: { projectId } }),
      ),
    erase: async (projectId, field, given) => {
      const value = parseErasureValue(given.value, given.jsonValue);
      return call(R.eraseByValue, { params: { projectId }, body: { field, value } });
    },
    exportSubmissions: async (projectId, options) => {
      const res = await send(R.exportSubmissions, {
        params: { projectId },
        query: { format: options.format, ...options.filters },
      });
      const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
      return (async function* () {
        for (;;) {
          const chunk = await reader?.read();
          if (chunk === undefined || chunk.done) return;
          yield chunk.value;
        }
      })();
    },
    listInbox: async (projectId, options) => {
      const order = options.order ?? 'desc';
      const page = await call<{ submissions: never[]; nextCursor?: string }>(R.listInbox, {
        params: { projectId },
        query: {
          ...options.filters,
          order: options.order,
          limit: options.limit,
          cursor: options.after === undefined ? undefined : encodeCursor(order, options.after),
        },
      });
      return { submissions: page.submissions, more: page.nextCursor !== undefined };
    },
    getSubmission: async (projectId, id) =>
      member<never>('submission')(await call(R.getInboxSubmission, { params: { projectId, id } })),
    bulkSubmissions: async (projectId, ids, action) =>
      call(R.bulkSubmissions, { params: { projectId }, body: { ids: [...ids], action } }),
    submissionStats: async (projectId, days) =>
      call(R.projectStats, { params: { projectId }, query: { days } }),
    auditLog: async (projectId, options = {}) => {
      const page = await call<{ entries: never[]; nextCursor?: string }>(R.auditLog, {
        params: { projectId },
        query: {
          limit: options.limit,
          cursor: options.before === undefined ? undefined : encodeCursor('desc', options.before),
        },
      });
      return { entries: page.entries, more: page.nextCursor !== undefined };
    },
    rebuildSearch: async (projectId) => call(R.rebuildSearch, { params: { projectId } }),
  };
  return ops;
}
