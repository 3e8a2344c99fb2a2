// C29: plain HTML forms at POST /f/<form-id>: conversion by type, the same validation and stored
// row as the JSON endpoint, redirects only to allowed origins, built-in pages, and the abuse checks.
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../src/fields/validation.ts';
import { database } from '../src/store/db.ts';
import { deleteProject, updateProjectSettings } from '../src/store/projects.ts';
import { spyD1 } from './d1-spy.ts';
import {
  expectEnvelope,
  fetchWorker,
  ONE_WINDOW,
  seedProject,
  storedData,
  storedRows,
  submit,
  submitWithEnv,
  withinOneWindow,
} from './helpers.ts';

const FORM_URL = (formId: string) => `https://forms.test/f/${formId}`;

function postForm(
  formId: string,
  body: URLSearchParams | FormData | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const all =
    typeof body === 'string' ? { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } : headers;
  return fetchWorker(
    new Request(FORM_URL(formId), { method: 'POST', body, headers: all, redirect: 'manual' }),
  );
}

const json = { Accept: 'application/json' };

async function project(spec: Parameters<typeof seedProject>[0] = {}) {
  return seedProject(spec);
}

describe('C29: the form address', () => {
  it('C29: every project has its own form id, distinct from its key; an unknown one is 404', async () => {
    const a = await project();
    const b = await project();
    expect(a.formId).toMatch(/^f_[a-z2-7]{12}$/);
    expect(a.formId).not.toBe(b.formId);
    expect(a.apiKey).not.toContain(a.formId.slice(2));
    await expectEnvelope(await postForm('f_nosuchform1', 'name=x', json), 404);
    await expectEnvelope(await postForm('not-a-form', 'name=x', json), 404);
  });

  it('C29: urlencoded and multipart are taken; anything else is 415; other methods 405', async () => {
    const p = await project();
    await expectEnvelope(await postForm(p.formId, 'name=Ada', json), 201);
    const multipart = new FormData();
    multipart.set('name', 'Bob');
    await expectEnvelope(await postForm(p.formId, multipart, json), 201);
    await expectEnvelope(
      await postForm(p.formId, '{"name":"x"}', { ...json, 'Content-Type': 'application/json' }),
      415,
    );
    // C44: GET is the hosted page's (off: 404); any other method 405, naming GET and POST.
    const get = await fetchWorker(new Request(FORM_URL(p.formId)));
    expect(get.status).toBe(404);
    const put = await fetchWorker(new Request(FORM_URL(p.formId), { method: 'PUT', body: 'name=Ada' }));
    expect(put.status).toBe(405);
    expect(put.headers.get('Allow')).toBe('GET, POST, OPTIONS');
    expect(await storedData(p.projectId)).toEqual([
      { name: 'Ada', enquiry: false },
      { name: 'Bob', enquiry: false },
    ]);
  });

  it('C29: the SPEC endpoint stays JSON only: a form body there is 415, as before', async () => {
    const p = await project();
    await expectEnvelope(
      await submit({ key: p.apiKey, contentType: 'application/x-www-form-urlencoded', body: 'name=Ada' }),
      415,
    );
  });
});

describe('C29: conversion by type', () => {
  const fields: FieldDef[] = [
    { name: 's', type: 'string', required: false },
    { name: 'i', type: 'integer', required: false },
    { name: 'n', type: 'number', required: false },
    { name: 'b', type: 'boolean', required: false },
  ];
  const cases: [string, Record<string, string>, unknown][] = [
    ['integer from its decimal text', { i: '42' }, { i: 42 }],
    ['integer with spaces around', { i: ' -7 ' }, { i: -7 }],
    ['empty integer is absent', { i: '', s: 'x' }, { s: 'x' }],
    ['number from decimal text', { n: '3.25' }, { n: 3.25 }],
    ['number with an exponent', { n: '1e3' }, { n: 1000 }],
    ['number -0 is 0', { n: '-0' }, { n: 0 }],
    ['empty number is absent', { n: '', s: 'x' }, { s: 'x' }],
    ['checkbox on', { b: 'on' }, { b: true }],
    ['true', { b: 'true' }, { b: true }],
    ['1', { b: '1' }, { b: true }],
    ['off', { b: 'off' }, { b: false }],
    ['false', { b: 'false' }, { b: false }],
    ['0', { b: '0' }, { b: false }],
    ['string as sent', { s: 'x' }, { s: 'x' }],
    ['empty string is absent', { s: '', i: '1' }, { i: 1 }],
    ['string with spaces and newlines', { s: ' a\r\nb ' }, { s: ' a\r\nb ' }],
  ];
  it.each(cases)('C29: %s', async (_, sent, stored) => {
    const p = await project({ fields });
    await expectEnvelope(await postForm(p.formId, new URLSearchParams(sent).toString(), json), 201);
    expect(await storedData(p.projectId)).toEqual([{ b: false, ...(stored as object) }]);
  });

  it('C29: a boolean field whose checkbox was not sent is false', async () => {
    const p = await project({ fields });
    await expectEnvelope(await postForm(p.formId, 's=x', json), 201);
    expect(await storedData(p.projectId)).toEqual([{ s: 'x', b: false }]);
  });

  const refused: [string, Record<string, string>, string][] = [
    ['an integer with a fraction', { i: '4.2' }, "Field 'i' is not of type integer"],
    ['an integer of letters', { i: 'abc' }, "Field 'i' is not of type integer"],
    ['an integer beyond 2^53', { i: '9007199254740993' }, "Field 'i' is not of type integer"],
    ['a number of letters', { n: 'x1' }, "Field 'n' is not of type number"],
    ['Infinity', { n: 'Infinity' }, "Field 'n' is not of type number"],
    ['hex', { n: '0x10' }, "Field 'n' is not of type number"],
    ['a boolean of yes', { b: 'yes' }, "Field 'b' is not of type boolean"],
  ];
  it.each(refused)('C29: %s gets the SPEC message, and nothing is stored', async (_, sent, message) => {
    const p = await project({ fields });
    await expectEnvelope(await postForm(p.formId, new URLSearchParams(sent).toString(), json), 400, {
      message: 'Validation failed',
      errors: [message],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C29: a name sent twice is an error that names it; nothing is stored', async () => {
    const p = await project({ fields });
    await expectEnvelope(await postForm(p.formId, 's=a&s=b&i=1', json), 400, {
      message: 'Validation failed',
      errors: ["Field 's' was sent more than once"],
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C29: names from `_` are controls, never stored; the rules and the unknown-field policy apply as in JSON', async () => {
    const p = await project({
      fields: [{ name: 'email', type: 'string', required: true, rules: { format: 'email' } }],
    });
    await expectEnvelope(await postForm(p.formId, 'email=nope&other=1&_extra=1', json), 400, {
      message: 'Validation failed',
      errors: ["Field 'email' must be an email address", "Field 'other' is not defined for this project"],
    });
    // Controls alone are no fields, as `{}` is not on the JSON endpoint.
    await expectEnvelope(await postForm(p.formId, '_only=1', json), 400, {
      message: 'Invalid request body',
      error: { message: 'Submission has no fields' },
    });
    await expectEnvelope(await postForm(p.formId, 'email=a%40example.com&_subject=x&_next=', json), 201);
    expect(await storedData(p.projectId)).toEqual([{ email: 'a@example.com' }]);
  });

  it('C29: a text control left empty is not filled in: an optional one absent, whatever its rules; a required one missing', async () => {
    const p = await project({
      fields: [
        { name: 'name', type: 'string', required: true },
        { name: 'email', type: 'string', required: false, rules: { format: 'email' } },
      ],
    });
    await expectEnvelope(await postForm(p.formId, 'name=Ada&email=', json), 201);
    await expectEnvelope(await postForm(p.formId, 'name=&email=a%40example.com', json), 400, {
      message: 'Validation failed',
      errors: ["Field 'name' is required"],
    });
    await expectEnvelope(await postForm(p.formId, 'name=Bo&email=nope', json), 400, {
      message: 'Validation failed',
      errors: ["Field 'email' must be an email address"],
    });
    expect(await storedData(p.projectId)).toEqual([{ name: 'Ada' }]);
  });

  it('C29: any urlencoded body that converts stores the same row as the equivalent JSON body', async () => {
    const p = await project({ fields, unknownFields: 'discard' });
    const value = fc.record(
      {
        // C29: an empty text is a control not filled in, absent where JSON's "" is a value.
        s: fc.string({ minLength: 1 }),
        i: fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        n: fc.double({ noNaN: true, noDefaultInfinity: true }),
        b: fc.boolean(),
      },
      { requiredKeys: ['b'] },
    );
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        const form = new URLSearchParams();
        for (const [k, x] of Object.entries(v)) {
          if (k === 'b') {
            if (x === true) form.set('b', 'on');
          } else form.set(k, String(x));
        }
        const before = (await storedRows(p.projectId)).length;
        await expectEnvelope(await postForm(p.formId, form.toString(), json), 201);
        await expectEnvelope(await submit({ key: p.apiKey, json: v }), 201);
        const rows = await storedRows(p.projectId);
        expect(rows).toHaveLength(before + 2);
        const [viaForm, viaJson] = rows.slice(-2).map((r) => JSON.parse(r.data));
        expect(viaForm).toEqual(viaJson);
      }),
      { numRuns: 60 },
    );
  });
});

describe('C29: where a form goes after', () => {
  const origin = 'https://shop.example';

  it('C29: success is 303 to `_next` on an allowed origin, else the thank-you URL, else the built-in page', async () => {
    const p = await project({ origins: [origin] });
    const headers = { Origin: origin };
    const toNext = await postForm(
      p.formId,
      `name=A&_next=${encodeURIComponent(`${origin}/thanks?x=1`)}`,
      headers,
    );
    expect(toNext.status).toBe(303);
    expect(toNext.headers.get('Location')).toBe(`${origin}/thanks?x=1`);
    // C18: a redirect and a page carry the request id, as every reply does.
    expect(toNext.headers.get('X-Request-Id')).toMatch(/\S/);
    const page = await postForm(p.formId, 'name=B', { ...headers, Referer: `${origin}/contact` });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(page.headers.get('X-Request-Id')).toMatch(/\S/);
    const html = await page.text();
    expect(html).toContain('<h1>Thank you</h1>');
    expect(html).toContain(`<a href="${origin}/contact">Back to the form</a>`);
    await updateProjectSettings(database(env.DB), p.projectId, { thankYouUrl: `${origin}/merci` });
    // The configuration is cached for a few seconds (C17): a new project sees it at once.
    const q = await project({ origins: [origin] });
    await updateProjectSettings(database(env.DB), q.projectId, { thankYouUrl: `${origin}/merci` });
    const toThanks = await postForm(q.formId, 'name=C', headers);
    expect(toThanks.status).toBe(303);
    expect(toThanks.headers.get('Location')).toBe(`${origin}/merci`);
    expect(await storedData(p.projectId)).toHaveLength(2);
  });

  it('C29: `_next` or `_error` off the allowed origins is refused before anything is stored (never an open redirect)', async () => {
    const p = await project({ origins: [origin] });
    for (const body of [
      'name=A&_next=https%3A%2F%2Fevil.example%2F',
      'name=A&_next=javascript%3Aalert(1)',
      'name=A&_next=%2F%2Fevil.example',
      'name=A&_error=https%3A%2F%2Fevil.example%2F',
    ]) {
      const res = await postForm(p.formId, body, { Origin: origin });
      expect(res.status).toBe(400);
      expect(res.headers.get('Location')).toBeNull();
      expect(await res.text()).toMatch(
        /Field &#39;_(next|error)&#39; must be a URL on one of the allowed origins/,
      );
    }
    // A project without allowed origins allows no redirect at all.
    const open = await project();
    expect((await postForm(open.formId, `name=A&_next=${encodeURIComponent(origin)}`)).status).toBe(400);
    expect(await storedRows(p.projectId)).toEqual([]);
    expect(await storedRows(open.projectId)).toEqual([]);
  });

  it('C29: a failure is a page with the JSON endpoint’s messages and a link back, or 303 to `_error`', async () => {
    const p = await project({ origins: [origin] });
    const res = await postForm(p.formId, 'phone=abc&name=%3Cb%3E', {
      Origin: origin,
      Referer: `${origin}/form`,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('X-Request-Id')).toMatch(/\S/);
    const html = await res.text();
    expect(html).toContain('<li>Field &#39;phone&#39; is not of type integer</li>');
    expect(html).toContain(`<a href="${origin}/form">Back to the form</a>`);
    const redirected = await postForm(p.formId, `phone=abc&_error=${encodeURIComponent(`${origin}/oops`)}`, {
      Origin: origin,
    });
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('Location')).toBe(`${origin}/oops`);
    // A Referer that is not http(s) never becomes a link.
    const sly = await postForm(p.formId, 'phone=abc', { Referer: 'javascript:alert(1)' });
    expect(await sly.text()).not.toContain('javascript:');
  });

  it('C29: with Accept: application/json both answer the envelope', async () => {
    const p = await project({ origins: [origin] });
    await expectEnvelope(
      await postForm(p.formId, `name=A&_next=${encodeURIComponent(origin)}`, { ...json, Origin: origin }),
      201,
      {
        message: 'Submission received',
      },
    );
    await expectEnvelope(await postForm(p.formId, 'phone=x', { ...json, Origin: origin }), 400, {
      message: 'Validation failed',
      errors: ["Field 'phone' is not of type integer"],
    });
  });
});

describe('C29: abuse, as on the JSON endpoint', () => {
  it('C29: allowed origins by Origin, else by Referer', async () => {
    const p = await project({ origins: ['https://shop.example'] });
    await expectEnvelope(
      await postForm(p.formId, 'name=A', { ...json, Origin: 'https://evil.example' }),
      403,
    );
    await expectEnvelope(
      await postForm(p.formId, 'name=A', { ...json, Referer: 'https://evil.example/x' }),
      403,
    );
    await expectEnvelope(
      await postForm(p.formId, 'name=A', { ...json, Origin: 'null', Referer: 'https://evil.example/x' }),
      403,
    );
    await expectEnvelope(
      await postForm(p.formId, 'name=A', { ...json, Referer: 'https://shop.example/x' }),
      201,
    );
    expect(await storedRows(p.projectId)).toHaveLength(1);
  });

  it('C22 + C29: the honeypot and `_gotcha` mark spam; neither, nor the Turnstile token, is stored', async () => {
    const p = await project({ honeypot: 'website' });
    await expectEnvelope(await postForm(p.formId, 'name=A&website=spam', json), 201);
    await expectEnvelope(await postForm(p.formId, 'name=B&_gotcha=spam', json), 201);
    await expectEnvelope(await postForm(p.formId, 'name=C&website=&_gotcha=', json), 201);
    const rows = await storedRows(p.projectId);
    expect(rows.map((r) => [JSON.parse(r.data).name, r.spam])).toEqual([
      ['A', true],
      ['B', true],
      ['C', false],
    ]);
    for (const r of rows) expect(r.data).not.toMatch(/website|gotcha|turnstile/);
  });

  it('C22 + C29: with Turnstile required, a form without a token is refused', async () => {
    const p = await project({ turnstileSecret: 'secret-for-test' });
    await expectEnvelope(await postForm(p.formId, 'name=A', json), 403, {
      message: 'Request refused',
      error: { message: 'Spam check failed' },
    });
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it('C10 + C29: a urlencoded body over MAX_BODY_BYTES is 413, nothing stored', async () => {
    const p = await project();
    const res = await postForm(p.formId, `message=${'a'.repeat(70_000)}`, json);
    await expectEnvelope(res, 413);
    expect(await storedRows(p.projectId)).toEqual([]);
  });
});

describe('C29: faults of the form itself', () => {
  it('C29: a multipart body that does not parse is 400, and nothing is stored', async () => {
    const p = await project();
    await expectEnvelope(
      await postForm(p.formId, 'garbage without a boundary line', {
        ...json,
        'Content-Type': 'multipart/form-data; boundary=xyz',
      }),
      400,
      {
        message: 'Invalid request body',
        error: { message: 'Request body is not valid multipart/form-data' },
      },
    );
    expect(await storedRows(p.projectId)).toEqual([]);
  });

  it(
    'C21 + C29: per client address, over the limit is 429, as on the JSON endpoint',
    ONE_WINDOW,
    async () => {
      await withinOneWindow();
      const p = await project();
      const tight = { ...env, ADDRESS_RATE_LIMIT: env.TIGHT_ADDRESS_RATE_LIMIT };
      const send = () =>
        submitWithEnv(tight, {
          url: FORM_URL(p.formId),
          contentType: 'application/x-www-form-urlencoded',
          body: 'name=A',
          headers: { ...json, 'CF-Connecting-IP': '203.0.113.9' },
        });
      await expectEnvelope(await send(), 201);
      await expectEnvelope(await send(), 201);
      const refused = await send();
      await expectEnvelope(refused, 429);
      expect(refused.headers.get('Retry-After')).toBe('10');
      expect(await storedRows(p.projectId)).toHaveLength(2);
    },
  );

  it(
    'C21 + C29: refused posts (a wrong media type, a malformed multipart body) from many addresses leave the form’s budget to valid ones',
    ONE_WINDOW,
    async () => {
      await withinOneWindow();
      const p = await project();
      const tight = {
        ...env,
        KEY_RATE_LIMIT: env.TIGHT_KEY_RATE_LIMIT,
        ADDRESS_RATE_LIMIT: env.TIGHT_ADDRESS_RATE_LIMIT,
      };
      const send = (i: number, contentType: string, body: string) =>
        submitWithEnv(tight, {
          url: FORM_URL(p.formId),
          contentType,
          body,
          headers: { ...json, 'CF-Connecting-IP': `203.0.113.${40 + i}` },
        });
      for (let i = 0; i < 4; i++) await expectEnvelope(await send(i, 'text/plain', 'name=A'), 415);
      await expectEnvelope(await send(4, 'multipart/form-data; boundary=x', '--x\r\nbroken'), 400);
      await expectEnvelope(await send(5, 'application/x-www-form-urlencoded', 'phone=nope'), 400);
      for (let i = 0; i < 3; i++) {
        await expectEnvelope(await send(10 + i, 'application/x-www-form-urlencoded', 'name=A'), 201);
      }
      // Valid posts still spend the form's budget (3 in the tight limiter).
      await expectEnvelope(await send(20, 'application/x-www-form-urlencoded', 'name=A'), 429);
      expect(await storedRows(p.projectId)).toHaveLength(3);
    },
  );

  it(
    'C21 + C29: made-up form ids count as failed authentications of the address; past the limit they cost no D1 query',
    ONE_WINDOW,
    async () => {
      await withinOneWindow();
      const tight = { ...env, AUTH_FAILURE_RATE_LIMIT: env.TIGHT_AUTH_FAILURE_RATE_LIMIT };
      const spy = spyD1(env.DB);
      const spied = { ...tight, DB: spy.db };
      const madeUp = (
        address: string,
        formId = `f_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`,
      ) =>
        submitWithEnv(spied, {
          url: FORM_URL(formId),
          contentType: 'application/x-www-form-urlencoded',
          body: 'name=A',
          headers: { ...json, 'CF-Connecting-IP': address },
        });
      await expectEnvelope(await madeUp('192.0.2.150'), 404);
      // A malformed id costs no query, and counts too.
      await expectEnvelope(await madeUp('192.0.2.150', 'not-a-form'), 404);
      await expectEnvelope(await madeUp('192.0.2.150'), 429);
      const before = spy.trips.length;
      for (let i = 0; i < 10; i++) await expectEnvelope(await madeUp('192.0.2.150'), 429);
      expect(spy.trips.length).toBe(before);
      // Another address is not affected.
      await expectEnvelope(await madeUp('192.0.2.151'), 404);
    },
  );

  it('C29 + C31: a form whose project is deleted while cached is 404, and another project is untouched', async () => {
    const gone = await project();
    const other = await project();
    await expectEnvelope(await postForm(gone.formId, 'name=warm', json), 201);
    await deleteProject(database(env.DB), gone.projectId);
    await expectEnvelope(await postForm(gone.formId, 'name=late', json), 404, {
      message: 'Not found',
      error: { message: 'No form at this address' },
    });
    await expectEnvelope(await postForm(other.formId, 'name=fine', json), 201);
  });
});
