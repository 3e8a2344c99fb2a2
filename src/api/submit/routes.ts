// POST /api/v1/submit: the acceptance pipeline (C5) with a bearer key and a JSON body, answered
// with the envelope. Its contract, beside it: the body is the project's own (checked by the
// pipeline, in C5's order, not by a schema here), and every reply it can give.
import type { Context } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import { acceptSubmission, type Intake } from '../../accept/pipeline.ts';
import { payerOfKey, projectOfKey } from '../../auth/authenticate.ts';
import { config } from '../../config.ts';
import { readWithin } from '../../http/body.ts';
import { describeRoute, pagePath } from '../../http/contract.ts';
import type { AppEnv } from '../../http/env.ts';
import { REPLAYED_HEADER } from '../../http/headers.ts';
import { isJsonMediaType } from '../../http/media-type.ts';
import { SUBMIT_PATH } from '../../http/paths.ts';
import * as replies from '../../http/replies.ts';
import { sendJson } from '../../http/send.ts';
import { parseObject } from './body.ts';
import { submitDescription } from './operation.ts';

/** A key in the Authorization header, and a JSON object in the body. */
const json: Intake<'json'> = {
  async identify(c) {
    const { project, keyHash } = await projectOfKey(c);
    return { project, cacheKey: keyHash, keyHash, payer: payerOfKey(project, keyHash) };
  },
  origin: (c) => c.req.header('Origin'),
  // C9
  mediaType(c) {
    if (!isJsonMediaType(c.req.header('Content-Type'))) throw replies.submitNeedsJson();
    return 'json';
  },
  // C10, C11: within MAX_BODY_BYTES; strict UTF-8, then JSON, then an object.
  async read(c) {
    const bytes = await readWithin(c.req.raw, config(c.env).MAX_BODY_BYTES);
    const { body, notIntegerText } = parseObject(bytes);
    // C20: a retry repeats the body byte for byte.
    return { body, problems: [], notIntegerText, idempotencyBytes: bytes };
  },
};

const CREATED_JSON = JSON.stringify(replies.created());

/** C5: 201 only once D1 has acknowledged the batch that holds the row (or the replay of it, C20). */
async function submit(c: Context<AppEnv>): Promise<Response> {
  const { replayed } = await acceptSubmission(c, json);
  return sendJson(c, 201, CREATED_JSON, replayed ? { [REPLAYED_HEADER]: 'true' } : {});
}

const SUBMIT_TAG = 'Submitting (JSON)';

const submitOperation = describeRoute(() => submitDescription(SUBMIT_TAG));

export function submitRoutes(app: HonoBase<AppEnv>): void {
  app.post(SUBMIT_PATH, submitOperation, submit);
  pagePath(app, SUBMIT_PATH, SUBMIT_TAG, 'preflight');
}
