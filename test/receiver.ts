// C26: the receiver of the delivery tests: a stand-in for `fetch` that behaves as it does (a
// redirect followed unless the request says `manual`; the answer's body streamed, counted as read),
// and a project with one webhook and one delivery waiting for it.
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

export type Received = { url: string; headers: Record<string, string>; body: string; answerRead: number };

const ELSEWHERE = 'https://elsewhere.example/';
export const ANSWER_CHUNK = 1024;
const ANSWER_CHUNKS = 100;

/**
 * The receiver: answers each call with the next of `answers` (the last one repeats), as `fetch`
 * would: a redirect is followed (to ELSEWHERE, which accepts) unless the request said `redirect:
 * 'manual'`, and the answer's body streams in 1 KiB chunks (100 KiB in all), counted as they are
 * read (`answerRead`), so that how much of it the worker reads is seen, not assumed.
 */
export function receiver(...answers: (number | Error)[]) {
  const calls: Received[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const call: Received = {
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.text(),
      answerRead: 0,
    };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? 200;
    if (answer instanceof Error) throw answer;
    const redirect = answer >= 300 && answer < 400;
    if (redirect && request.redirect !== 'manual') {
      calls.push({ url: ELSEWHERE, headers: {}, body: call.body, answerRead: 0 });
      return new Response('followed', { status: 200 });
    }
    const encoder = new TextEncoder();
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (chunks === ANSWER_CHUNKS) return controller.close();
        const text = chunks === 0 ? `answer ${answer} ` : '';
        const chunk = encoder.encode(`${text}${'x'.repeat(ANSWER_CHUNK - text.length)}`);
        chunks++;
        call.answerRead += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return new Response(body, { status: answer, headers: redirect ? { Location: ELSEWHERE } : {} });
  });
  return calls;
}

/** A project with one webhook, and one submission's delivery to it, written and waiting. */
export async function oneDelivery(url = RECEIVER) {
  const p = await projectWithWebhook(url);
  await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
  const [row] = await storedRows(p.projectId);
  await consumeOutbox([row?.id ?? '']);
  return { ...p, submission: row, id: deliveryId(row?.id ?? '', p.webhook.id) };
}
