// C26: a signed webhook: every accepted submission POSTed to the owner's URL as a
// `submission.created` event, signed as Standard Webhooks defines it (the current secret, and the
// previous one during a rotation). A 410 Gone disables it; anything else but 2xx is retried.
import { READ_PATH } from '../../http/paths.ts';
import { destinationProblem } from '../../lib/destinations.ts';
import { webhookHeaders } from '../../lib/webhook-signature.ts';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import { type AttemptResult, httpRequest, meaning, type StatusRules } from '../outbound.ts';
import type { HookChannel, SendContext, TestTarget } from './channel.ts';

/** C26: a receiver that answers 410 Gone wants no more. */
const RULES: StatusRules = { disableOn: [410], because: 'gone' };

/**
 * The event a receiver gets: the submission as stored, and nothing of its request. C30: a file
 * field's value is its metadata; `files` gives the read API path of each file, never its bytes.
 */
export function submissionEvent(
  d: Pick<DeliveryToSend, 'projectId' | 'submissionId' | 'receivedAt' | 'data'> & { files?: string | null },
): string {
  const names = d.files === undefined || d.files === null ? [] : (JSON.parse(d.files) as string[]);
  const files =
    names.length === 0
      ? ''
      : `,"files":${JSON.stringify(Object.fromEntries(names.map((name) => [name, `${READ_PATH}/${d.submissionId}/files/${encodeURIComponent(name)}`])))}`;
  return `{"type":"submission.created","timestamp":${JSON.stringify(d.receivedAt)},"data":{"projectId":${JSON.stringify(d.projectId)},"submissionId":${JSON.stringify(d.submissionId)},"receivedAt":${JSON.stringify(d.receivedAt)},"fields":${d.data}${files}}}`;
}

/** The secrets that sign now: the current one, and the previous one until its rotation ends. */
export function signingSecrets(
  d: Pick<TestTarget, 'secret' | 'previousSecret' | 'previousUntil'>,
  now: Date,
) {
  const previous =
    d.previousSecret !== null && d.previousUntil !== null && Date.parse(d.previousUntil) > now.getTime();
  return previous && d.previousSecret !== null ? [d.secret, d.previousSecret] : [d.secret];
}

/** One signed POST of a message (Standard Webhooks), after the destination's check (C26). */
async function postSigned(
  target: TestTarget,
  message: { id: string; body: string },
  ctx: SendContext,
): Promise<AttemptResult> {
  // C26: checked again before each attempt: a destination stored before a rule tightened, say.
  const problem = destinationProblem(target.url, ctx.allowLocalHttp);
  if (problem !== undefined) return { ok: false, status: null, error: problem, excerpt: null };
  const headers = await webhookHeaders(
    signingSecrets(target, ctx.now),
    message.id,
    Math.floor(ctx.now.getTime() / 1000),
    message.body,
  );
  const reply = await httpRequest(ctx, target.url, { method: 'POST', headers, body: message.body });
  return meaning(reply, RULES);
}

export const webhook: HookChannel = {
  family: 'webhook',
  name: 'Webhook',
  label: 'signed webhook',
  example: 'https://example.com/hooks/forms',
  signs: true,
  rules: RULES,
  problem: destinationProblem,
  shown: (url) => url,
  send: (d, ctx) => postSigned({ ...d, id: d.targetId }, { id: d.id, body: submissionEvent(d) }, ctx),
  test: (hook, project, messageId, ctx) =>
    postSigned(
      hook,
      {
        id: messageId,
        body: JSON.stringify({
          type: 'webhook.test',
          timestamp: ctx.now.toISOString(),
          data: { projectId: project.id, webhookId: hook.id },
        }),
      },
      ctx,
    ),
};
