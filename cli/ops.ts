// C19, C32: the operations the tool's commands call, two ways: on a database (`--local`, the
// default, or `--remote` through wrangler), each operation of src/ops called as itself; or on a
// deployed worker's management API (`--url`), each operation one request to the route that calls
// the same operation there. The results are the same either way.
import type { FieldDef } from '../src/fields/validation.ts';
import { Conflict, InvalidInput, NotFound } from '../src/lib/faults.ts';
import type { Manager } from '../src/ops/context.ts';
import { listDeliveries, redeliver } from '../src/ops/deliveries.ts';
import { exportSubmissions } from '../src/ops/export.ts';
import { addOrigin, defineField, removeField, removeOrigin } from '../src/ops/fields.ts';
import {
  auditLog,
  bulkSubmissions,
  getSubmission,
  listSubmissions,
  rebuildSearch,
  submissionStats,
} from '../src/ops/inbox.ts';
import { parseErasureValue } from '../src/ops/input.ts';
import { createKey, listKeys, revokeKey } from '../src/ops/keys.ts';
import {
  createProject,
  deleteProject,
  listProjects,
  projectSchema,
  showProject,
  updateProject,
} from '../src/ops/projects.ts';
import { erase } from '../src/ops/submissions.ts';
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
} from '../src/ops/targets.ts';
import { displayPrefix, looksLikeKey } from '../src/projects/keys.ts';

const OPERATIONS = {
  createProject,
  listProjects,
  showProject,
  projectSchema,
  updateProject,
  deleteProject,
  defineField,
  removeField,
  addOrigin,
  removeOrigin,
  createKey,
  listKeys,
  revokeKey,
  addWebhook,
  listWebhooks,
  removeWebhook,
  rotateSecret,
  setWebhookEnabled,
  testWebhook,
  addNotification,
  listNotifications,
  removeNotification,
  listDeliveries,
  redeliver,
  erase,
  exportSubmissions,
  listSubmissions,
  getSubmission,
  bulkSubmissions,
  submissionStats,
  auditLog,
  rebuildSearch,
};

type Operations = typeof OPERATIONS;
type Tail<F> = F extends (m: Manager, ...rest: infer A) => infer R ? (...rest: A) => R : never;
/** Every operation, given its arguments but the Manager. */
export type Ops = { [K in keyof Operations]: Tail<Operations[K]> };

/** The operations on a database, as the tool. */
export function localOps(m: Manager): Ops {
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, op]) => [
      name,
      (...args: unknown[]) => (op as (m: Manager, ...a: unknown[]) => unknown)(m, ...args),
    ]),
  ) as Ops;
}

/** The worker answered with a refusal the tool cannot name otherwise (401, 403, 429, 5xx). */
export class RemoteRefusal extends Error {
  override name = 'RemoteRefusal';
}

type Reply = {
  data: Record<string, unknown> & { message: string; error?: { message: string }; errors?: string[] };
};

const e = encodeURIComponent;

/**
 * The operations on a worker's management API, with the operator token (or a project's secret
 * key). Each refusal becomes the fault the operation itself would raise: 400 InvalidInput, 404
 * NotFound, 409 Conflict; anything else a RemoteRefusal with the worker's words.
 */
export function remoteOps(base: string, token: string, fetchImpl: typeof fetch = fetch): Ops {
  const root = `${base.replace(/\/+$/, '')}/api/v1`;
  async function send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const res = await fetchImpl(`${root}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).catch((cause: unknown) => {
      const why =
        cause instanceof Error
          ? cause.cause instanceof Error
            ? cause.cause.message
            : cause.message
          : String(cause);
      throw new RemoteRefusal(`cannot reach ${base}: ${why}`);
    });
    if (res.ok) return res;
    let reason = `${res.status} ${res.statusText}`;
    try {
      const reply = (await res.json()) as Reply;
      reason = reply.data.error?.message ?? reply.data.errors?.join('; ') ?? reply.data.message;
    } catch {
      // Not the envelope (a proxy's page): the status says it.
    }
    if (res.status === 400 || res.status === 413 || res.status === 415) throw new InvalidInput(reason);
    if (res.status === 404) throw new NotFound(reason);
    if (res.status === 409) throw new Conflict(reason);
    throw new RemoteRefusal(`the worker answered ${res.status}: ${reason}`);
  }
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T> {
    const { data } = (await (await send(method, path, body, headers)).json()) as Reply;
    const { message: _, ...rest } = data;
    return rest as T;
  }
  const member =
    <T>(name: string) =>
    (result: Record<string, unknown>) =>
      result[name] as T;
  const project = (id: string) => `/projects/${e(id)}`;
  const query = (params: Record<string, string | number | boolean | undefined>) => {
    const entries = Object.entries(params).filter(
      (kv): kv is [string, string | number | boolean] => kv[1] !== undefined,
    );
    return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}`;
  };
  const fieldBody = (f: FieldDef) => ({
    type: f.type,
    required: f.required,
    ...(f.rules === undefined ? {} : { rules: f.rules }),
  });

  const ops: Ops = {
    createProject: async (input) =>
      call('POST', '/projects', {
        ...input,
        fields: input.fields.map((f) => ({ name: f.name, ...fieldBody(f) })),
        ...(typeof input.retentionDays === 'string' ? { retentionDays: Number(input.retentionDays) } : {}),
      }),
    listProjects: async () => member<never>('projects')(await call('GET', '/projects')),
    showProject: async (id) => member<never>('project')(await call('GET', project(id))),
    projectSchema: async (id) => member<never>('schema')(await call('GET', `${project(id)}/schema`)),
    updateProject: async (id, changes) => {
      const days = changes.retentionDays;
      const body = {
        ...changes,
        ...(typeof days === 'string' && /^\d+$/.test(days) ? { retentionDays: Number(days) } : {}),
      };
      return member<never>('project')(await call('PATCH', project(id), body));
    },
    deleteProject: async (id) => member<never>('project')(await call('DELETE', project(id))),
    defineField: async (id, def, mode) => {
      const headers: Record<string, string> =
        mode === 'add' ? { 'If-None-Match': '*' } : mode === 'replace' ? { 'If-Match': '*' } : {};
      const { added } = await call<{ added: boolean }>(
        'PUT',
        `${project(id)}/fields/${e(def.name)}`,
        fieldBody(def),
        headers,
      );
      return { added };
    },
    removeField: async (id, name) => {
      await call('DELETE', `${project(id)}/fields/${e(name)}`);
    },
    addOrigin: async (id, origin) =>
      member<string>('origin')(await call('POST', `${project(id)}/origins`, { origin })),
    removeOrigin: async (id, origin) =>
      member<string>('origin')(await call('DELETE', `${project(id)}/origins/${e(origin)}`)),
    createKey: async (id, kind) => member<string>('key')(await call('POST', `${project(id)}/keys`, { kind })),
    listKeys: async (id) => member<never>('keys')(await call('GET', `${project(id)}/keys`)),
    revokeKey: async (id, given) => {
      // C19: a whole key never leaves this machine in a URL.
      if (looksLikeKey(given)) {
        throw new InvalidInput(
          `Give the key's prefix as \`key list\` shows it (${displayPrefix(given)}), not the whole key: a command line is kept in shell history and logs`,
        );
      }
      return member<string>('revoked')(
        await call('DELETE', `${project(id)}/keys/${e(given.replace(/…$/, ''))}`),
      );
    },
    addWebhook: async (id, url, kind) =>
      call('POST', `${project(id)}/webhooks`, { url, ...(kind === undefined ? {} : { kind }) }),
    listWebhooks: async (id) => member<never>('webhooks')(await call('GET', `${project(id)}/webhooks`)),
    removeWebhook: async (id, webhookId) => {
      await call('DELETE', `${project(id)}/webhooks/${e(webhookId)}`);
    },
    rotateSecret: async (id, webhookId) =>
      call('POST', `${project(id)}/webhooks/${e(webhookId)}/rotate-secret`),
    setWebhookEnabled: async (id, webhookId, enabled) =>
      call('PATCH', `${project(id)}/webhooks/${e(webhookId)}`, { enabled }),
    // Sent from the worker: its own rules say where it may send.
    testWebhook: async (id, webhookId) => call('POST', `${project(id)}/webhooks/${e(webhookId)}/test`),
    addNotification: async (id, address, replyToField) =>
      call('POST', `${project(id)}/notifications`, {
        address,
        ...(replyToField === undefined ? {} : { replyToField }),
      }),
    listNotifications: async (id) => call('GET', `${project(id)}/notifications`),
    removeNotification: async (id, which) => call('DELETE', `${project(id)}/notifications/${e(which)}`),
    listDeliveries: async (id, options = {}) =>
      member<never>('deliveries')(await call('GET', `${project(id)}/deliveries${query({ ...options })}`)),
    redeliver: async (id, which) =>
      member<never>('results')(
        await call(
          'POST',
          `${project(id)}/deliveries/${'id' in which ? `${e(which.id)}/redeliver` : 'redeliver-failed'}`,
        ),
      ),
    erase: async (id, field, given) => {
      const value = parseErasureValue(given.value, given.jsonValue);
      return call('POST', `${project(id)}/submissions/erase`, { field, value });
    },
    exportSubmissions: async (id, options) => {
      const { spam, since, until, q, read, starred, files } = options.filters ?? {};
      const res = await send(
        'GET',
        `${project(id)}/submissions/export${query({ format: options.format, spam, since, until, q, read, starred, files })}`,
      );
      const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
      return (async function* () {
        for (;;) {
          const chunk = await reader?.read();
          if (chunk === undefined || chunk.done) return;
          yield chunk.value;
        }
      })();
    },
    listSubmissions: async (id, options) => {
      const page = await call<{ submissions: never[]; nextCursor?: string }>(
        'GET',
        `${project(id)}/submissions${query({ ...options.filters, order: options.order, limit: options.limit })}`,
      );
      return { submissions: page.submissions, more: page.nextCursor !== undefined };
    },
    getSubmission: async (id, submissionId) =>
      member<never>('submission')(await call('GET', `${project(id)}/submissions/${e(submissionId)}`)),
    bulkSubmissions: async (id, ids, action) =>
      call('POST', `${project(id)}/submissions/bulk`, { ids, action }),
    submissionStats: async (id, days) =>
      member<never>('days')(await call('GET', `${project(id)}/stats${query({ days })}`)),
    auditLog: async (id, options = {}) => {
      const page = await call<{ entries: never[]; nextCursor?: string }>(
        'GET',
        `${project(id)}/audit${query({ limit: options.limit })}`,
      );
      return { entries: page.entries, more: page.nextCursor !== undefined };
    },
    rebuildSearch: async (id) => call('POST', `${project(id)}/search/rebuild`),
  };
  return ops;
}
