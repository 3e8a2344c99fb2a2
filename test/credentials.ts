// C23, C24, C32, C37: every kind of credential a caller may bring to the routes that read and
// change a project's data (none, a wrong one, a publishable key, a secret key of the project, a
// secret key of another project, the operator's token, and a session of the project's secret key
// with and without its CSRF token), and a request made with each against a project made for it.
import { expect } from 'vitest';
import { addOrigin } from '../src/ops/fields.ts';
import { addIntegration } from '../src/ops/integrations.ts';
import { createKey, listKeys } from '../src/ops/keys.ts';
import { addNotification, addWebhook } from '../src/ops/targets.ts';
import { asTool, fetchWorker, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { BASE, operatorToken, signedIn } from './manage/helpers.ts';

export type Fixture = {
  projectId: string;
  publishable: string;
  secret: string;
  otherSecret: string;
  /** A second secret key, for the session (a session spends its key's rate limit, C37). */
  sessionKey: string;
  spareKeyPrefix: string;
  webhookId: string;
  notificationId: string;
  integrationId: string;
  submissionId: string;
};

/** C38: a Telegram integration's body (adding one sends nothing). */
export const TELEGRAM = {
  kind: 'telegram',
  botToken: '123456789:AAbbccddeeffgghhiijjkkllmmnnooppqqr',
  chatId: '-1001234567890',
};

async function fixture(): Promise<Fixture> {
  const m = asTool();
  const project = await seedProject({ name: 'Credentials' });
  const other = await seedProject({ name: 'Another' });
  const secret = await createKey(m, project.projectId, 'secret');
  const sessionKey = await createKey(m, project.projectId, 'secret');
  const spare = await createKey(m, project.projectId, 'publishable');
  const otherSecret = await createKey(m, other.projectId, 'secret');
  await addOrigin(m, project.projectId, 'https://example.org');
  const { webhookId } = await addWebhook(m, project.projectId, 'https://hooks.example.com/forms');
  const { notificationId } = await addNotification(m, project.projectId, 'owner@example.com');
  const { integrationId } = await addIntegration(m, project.projectId, TELEGRAM);
  const res = await submit({ key: project.apiKey, json: VALID_BODY });
  expect(res.status).toBe(201);
  await res.arrayBuffer();
  const [row] = await storedRows(project.projectId);
  if (row === undefined) throw new Error('the fixture stored no submission');
  const spareKeyPrefix = (await listKeys(m, project.projectId)).find(
    (k) => k.kind === 'publishable' && spare.startsWith(k.prefix.replace(/…$/, '')),
  )?.prefix;
  if (spareKeyPrefix === undefined) throw new Error('the spare key is not listed');
  return {
    projectId: project.projectId,
    publishable: project.apiKey,
    secret,
    otherSecret,
    sessionKey,
    spareKeyPrefix: spareKeyPrefix.replace(/…$/, ''),
    webhookId,
    notificationId,
    integrationId,
    submissionId: row.id,
  };
}

export const CREDENTIALS = [
  'none',
  'wrong',
  'publishable',
  'secret',
  'other secret',
  'operator',
  'session',
  'session without CSRF',
] as const;
export type Credential = (typeof CREDENTIALS)[number];

async function headersOf(credential: Credential, f: Fixture): Promise<Record<string, string>> {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  switch (credential) {
    case 'none':
      return {};
    case 'wrong':
      return bearer(`sk_live_${'x'.repeat(40)}`);
    case 'publishable':
      return bearer(f.publishable);
    case 'secret':
      return bearer(f.secret);
    case 'other secret':
      return bearer(f.otherSecret);
    case 'operator':
      return bearer(operatorToken());
    case 'session':
      return signedIn(f.sessionKey);
    case 'session without CSRF': {
      const { 'X-CSRF-Token': _, ...rest } = await signedIn(f.sessionKey);
      return rest;
    }
  }
}

/** A request a caller allowed to make it would have answered with `allowed`. */
export type Case = {
  method: string;
  path: (f: Fixture) => string;
  body?: unknown;
  allowed: number;
  /** Who may: the project's own callers, the operator only, or any caller (a key of any project). */
  who: 'project' | 'operator' | 'any';
};

export async function send(c: Case, credential: Credential): Promise<number> {
  const f = await fixture();
  const headers = new Headers(await headersOf(credential, f));
  if (c.body !== undefined) headers.set('Content-Type', 'application/json');
  const res = await fetchWorker(
    new Request(`${BASE}${c.path(f)}`, {
      method: c.method,
      headers,
      body: c.body === undefined ? null : JSON.stringify(c.body),
    }),
  );
  await res.arrayBuffer();
  return res.status;
}
