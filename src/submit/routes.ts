// POST /api/v1/submit: the acceptance pipeline (C5) with a bearer key and a JSON body, answered
// with the envelope.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { REPLAYED_HEADER } from '../accept/idempotency.ts';
import { acceptSubmission, type Intake } from '../accept/pipeline.ts';
import { type AppEnv, payerOfKey, projectOfKey } from '../auth/authenticate.ts';
import { config } from '../config.ts';
import { readWithin } from '../http/body.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import { created as createdEnvelope, SUBMIT_PATH, unsupportedMediaType } from '../http/replies.ts';
import { sendJson, sendMethodNotAllowed } from '../http/send.ts';
import { parseObject } from './body.ts';

/** A key in the Authorization header, and a JSON object in the body. */
const json: Intake<'json'> = {
  async identify(c) {
    const { project, keyHash } = await projectOfKey(c);
    return { project, payer: payerOfKey(project, keyHash) };
  },
  origin: (c) => c.req.header('Origin'),
  // C9
  mediaType(c) {
    if (!isJsonMediaType(c.req.header('Content-Type'))) throw unsupportedMediaType();
    return 'json';
  },
  // C10, C11: within MAX_BODY_BYTES; strict UTF-8, then JSON, then an object.
  async read(c) {
    const bytes = await readWithin(c.req.raw, config(c.env).MAX_BODY_BYTES);
    const { body, notIntegerText } = parseObject(bytes);
    // C20: a retry repeats the body byte for byte.
    return { body, errors: [], notIntegerText, idempotencyBytes: bytes };
  },
};

const CREATED_JSON = JSON.stringify(createdEnvelope());

/** C5: 201 only once D1 has acknowledged the batch that holds the row (or the replay of it, C20). */
async function submit(c: Context<AppEnv>): Promise<Response> {
  const { replayed } = await acceptSubmission(c, json);
  return sendJson(c, 201, CREATED_JSON, replayed ? { [REPLAYED_HEADER]: 'true' } : {});
}

export function submitRoutes(app: HonoBase<AppEnv>): void {
  app.post(SUBMIT_PATH, submit);
  // C16: the one path answers other methods with 405.
  app.all(SUBMIT_PATH, sendMethodNotAllowed);
}
