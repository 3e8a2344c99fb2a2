// C35, C36: what the tests of the confirmation and of the chat targets share: the project's fields,
// and a submission over HTTP with the id of its delivery to a target.
import { expect } from 'vitest';
import { deliveryId } from '../src/store/deliveries.ts';
import { submit, submitWithEnv } from './helpers.ts';
import { api, ok } from './manage/helpers.ts';
import { BROWSER_HEADERS, throughWidget } from './queue.ts';
import { mockSiteverify, verdict } from './siteverify.ts';

export const FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'email', type: 'string', rules: { format: 'email' } },
  { name: 'message', type: 'string' },
];

/**
 * A submission to the project over HTTP, and the id of its delivery to the target; with a token, it
 * passes Turnstile (siteverify stood in for: it accepts `pass`).
 */
export async function submitted(
  p: { apiKey: string; projectId: string },
  target: string,
  json: Record<string, unknown>,
  options: { origin?: string; token?: string; env?: Env } = {},
) {
  // As a person sends it, through the widget: these tests are about delivery, not spam (C39).
  const headers = { ...BROWSER_HEADERS, ...(options.origin ? { Origin: options.origin } : {}) };
  const sent = await throughWidget(p.projectId, json);
  const body = options.token === undefined ? sent : { ...sent, 'cf-turnstile-response': options.token };
  const siteverify =
    options.token === undefined
      ? undefined
      : mockSiteverify((form) => verdict(form.get('response') === 'pass'));
  const res = options.env
    ? await submitWithEnv(options.env, { key: p.apiKey, json: body, headers })
    : await submit({ key: p.apiKey, json: body, headers });
  siteverify?.spy.mockRestore();
  expect(res.status).toBe(201);
  const { submissions } = await ok<{ submissions: { id: string }[] }>(
    await api('GET', `/projects/${p.projectId}/submissions?spam=include&limit=1`),
  );
  return deliveryId(submissions[0]?.id ?? '', target);
}
