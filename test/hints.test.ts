// C43, C16: replies that point the way. SPEC's texts and the codes stay as they are; a `hint`
// beside them says what to do instead: a form's post goes to its form address, a field the project
// does not define may be dropped by a setting, keys are made in the dashboard or with the tool; and
// the worker's own address answers a browser with a page of links, a client with a sentence.
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { FORM_ADDRESS_HINT, HOME_MESSAGE, KEY_HINT, UNKNOWN_FIELD_HINT } from '../src/http/hints.ts';
import { expectEnvelope, fetchWorker, seedProject, submit, URL_SUBMIT, VALID_BODY } from './helpers.ts';

describe('replies that point the way (C43)', () => {
  it('a form post to the JSON path: 415 as SPEC says it, and where a form posts', async () => {
    const p = await seedProject();
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await fetchWorker(
        new Request(URL_SUBMIT, {
          method: 'POST',
          headers: { Authorization: `Bearer ${p.apiKey}`, 'Content-Type': type },
          body: 'name=Ada',
        }),
      );
      await expectEnvelope(res, 415, {
        message: 'Unsupported media type',
        error: { message: 'Content-Type must be application/json', code: 'unsupported_media_type' },
        hint: FORM_ADDRESS_HINT,
      });
    }
    expect(FORM_ADDRESS_HINT).toContain('/f/<form-id>');
  });

  it('a field the project does not define: the setting that drops such fields, beside the problem', async () => {
    const p = await seedProject();
    const body = await expectEnvelope(
      await submit({ key: p.apiKey, json: { ...VALID_BODY, colour: 'red' } }),
      400,
    );
    expect(body.data.errors).toEqual(["Field 'colour' is not defined for this project"]);
    expect((body.data as { hint?: string }).hint).toBe(UNKNOWN_FIELD_HINT);
    expect(UNKNOWN_FIELD_HINT).toContain('--unknown-fields discard');
    // Another problem alone says nothing more.
    const other = await expectEnvelope(
      await submit({ key: p.apiKey, json: { ...VALID_BODY, email: 3 } }),
      400,
    );
    expect('hint' in other.data).toBe(false);
  });

  it('a key the worker does not know: 401 as SPEC says it, and where keys are made', async () => {
    const res = await submit({ key: 'edgeform_pk_nothing0000000000000000000000', json: VALID_BODY });
    await expectEnvelope(res, 401, {
      message: 'Authentication failed',
      error: { message: 'Invalid API key', code: 'invalid_key' },
      hint: KEY_HINT,
    });
  });
});

describe("the worker's own address (C16)", () => {
  it('a browser gets a page that links the dashboard and the reference', async () => {
    const res = await fetchWorker(
      new Request('https://forms.test/', {
        headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toContain('<a href="/admin/">');
    expect(page).toContain('<a href="/reference/">');
    expect(page).toContain('/f/&lt;form-id&gt;');
  });

  it('a client gets the same in one sentence; another path is still 404', async () => {
    const res = await fetchWorker(
      new Request('https://forms.test/', { headers: { Accept: 'application/json' } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { message: HOME_MESSAGE },
      status: { code: 200, message: 'OK' },
    });
    // Another method there is no route: 404, as any other path (C16).
    const posted = await exports.default.fetch(
      new Request('https://forms.test/', { method: 'POST', body: '{}' }),
    );
    expect(posted.status).toBe(404);
    const missing = await fetchWorker(
      new Request('https://forms.test/nothing', { headers: { Accept: 'text/html' } }),
    );
    expect(missing.status).toBe(404);
  });
});
