// C26, C36, C38: the receiver of the delivery tests: a stand-in for `fetch` that behaves as it does
// (a redirect followed unless the request says `manual`; the answer's body streamed, counted as
// read), in front of a receiver of its own or of a service's stand-in (test/standin.ts); and a
// project with one webhook and one delivery waiting for it.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { newWebhookSecret } from '../src/lib/webhook-signature.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { insertTarget, newWebhookId } from '../src/store/targets.ts';
import { expectEnvelope, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { consumeOutbox } from './queue.ts';

export const RECEIVER = 'https://receiver.example/hooks';

export async function projectWithWebhook(url = RECEIVER, spec: Parameters<typeof seedProject>[0] = {}) {
  const p = await seedProject(spec);
  const webhook = { id: newWebhookId(), projectId: p.projectId, url, secret: newWebhookSecret() };
  await insertTarget(database(env.DB), webhook);
  return { ...p, webhook };
}

export type Received = {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** What the request said of redirects: `manual` (C26: never followed) or `follow`. */
  redirect: Request['redirect'];
  answerRead: number;
};

/** What a test makes a receiver or a service answer: a status (with its headers), or a network fault. */
export type Answer = number | Error | { status: number; headers?: Record<string, string> };

const ELSEWHERE = 'https://elsewhere.example/';
export const ANSWER_CHUNK = 1024;
const ANSWER_CHUNKS = 100;
/** The statuses whose answer has no body (the Response would refuse one). */
const NO_BODY = new Set([204, 205, 304]);

/** A request as the stand-in saw it; its body read as bytes (a form's too, without workerd's warning). */
async function received(request: Request): Promise<Received> {
  return {
    url: request.url,
    headers: Object.fromEntries(request.headers),
    body: new TextDecoder().decode(await request.clone().arrayBuffer()),
    redirect: request.redirect,
    answerRead: 0,
  };
}

/**
 * `answer` as `fetch` gives it: a redirect is followed (to ELSEWHERE, which accepts, recorded in
 * `calls`) unless the request said `redirect: 'manual'`, and the answer's body (`answer <status>`
 * and then x's) streams in 1 KiB chunks (100 KiB in all), counted as they are read
 * (`answerRead`), so that how much of it the worker reads is seen, not assumed.
 */
function give(request: Request, call: Received, answer: Answer, calls: Received[]): Response {
  if (answer instanceof Error) throw answer;
  const { status, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
  const redirect = status >= 300 && status < 400;
  if (redirect && request.redirect !== 'manual') {
    calls.push({ url: ELSEWHERE, headers: {}, body: call.body, redirect: 'follow', answerRead: 0 });
    return new Response('followed', { status: 200 });
  }
  const encoder = new TextEncoder();
  let chunks = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (chunks === ANSWER_CHUNKS) return controller.close();
      const text = chunks === 0 ? `answer ${status} ` : '';
      const chunk = encoder.encode(`${text}${'x'.repeat(ANSWER_CHUNK - text.length)}`);
      chunks++;
      call.answerRead += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return new Response(NO_BODY.has(status) ? null : body, {
    status,
    headers: { ...(redirect ? { Location: ELSEWHERE } : {}), ...headers },
  });
}

/** Whether a request reached the address a redirect pointed to (it never should: C26). */
export const followed = (calls: readonly Received[]) => calls.some((c) => c.url === ELSEWHERE);

/**
 * The receiver: answers each call with the next of `answers` (the last one repeats), as `fetch`
 * would (above).
 */
export function receiver(...answers: Answer[]) {
  const calls: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const call = await received(request);
    calls.push(call);
    return give(request, call, answers[Math.min(calls.length - 1, answers.length - 1)] ?? 200, calls);
  });
  return calls;
}

/**
 * A service on this machine (`behind`: test/standin.ts) as `fetch` reaches it, every request
 * recorded; while a test has said `answer(…)`, every request is answered so instead (as above),
 * however many one attempt makes.
 */
export function service(behind: (request: Request) => Promise<Response>) {
  const calls: Received[] = [];
  let forced: Answer | undefined;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const call = await received(request);
    calls.push(call);
    return forced === undefined ? behind(request) : give(request, call, forced, calls);
  });
  return {
    calls,
    /** Every request answered so from now on; `undefined`: the service answers again. */
    answer(answer: Answer | undefined) {
      forced = answer;
    },
  };
}

/** A project with one webhook, and one submission's delivery to it, written and waiting. */
export async function oneDelivery(url = RECEIVER) {
  const p = await projectWithWebhook(url);
  await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
  const [row] = await storedRows(p.projectId);
  await consumeOutbox([row?.id ?? '']);
  return { ...p, submission: row, id: deliveryId(row?.id ?? '', p.webhook.id) };
}
