// C22: Turnstile's siteverify, stood in for at the worker's outbound fetch: it answers each call as
// told, records the forms it was sent, and fails the test on any other outbound request.
import { vi } from 'vitest';
import { SITEVERIFY_URL } from '../src/accept/turnstile.ts';

export const verdict = (success: boolean, codes: string[] = []) =>
  Response.json({ success, 'error-codes': codes, hostname: 'site.example' });

type Verify = (form: FormData) => Response | Promise<Response>;

/** Siteverify, answered by `verify`; every other outbound request fails the test. */
export function mockSiteverify(verify: Verify) {
  const calls: FormData[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== SITEVERIFY_URL || request.method !== 'POST')
      throw new Error(`unexpected fetch ${request.url}`);
    const form = await request.formData();
    calls.push(form);
    return verify(form);
  });
  return { calls, spy };
}
