// Work that outlives a request's reply (a cache kept or purged): handed to the request's waitUntil,
// so that the reply need not wait for it; a request made without an execution context (the tests'
// `app.request`) awaits it instead, so that nothing runs on after its test.
import type { Context } from 'hono';

export async function afterReply(c: Context, work: Promise<unknown>): Promise<void> {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    await work;
  }
}
