// C44: the hosted form page at `GET /f/<form-id>`: off until its owner turns it on; in the
// visitor's language (`?lang=`, else Accept-Language among the page's, else its first); a strict
// Content-Security-Policy whose one inline style is named by its hash; whose form it is in its
// footer; the edge cache, purged by a change to the project; and a plain 404 page for a page off,
// a project moving or gone, an address of no form, or a deployment without hosted pages.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { projects } from '../schema/tables.ts';
import { beginRender, cachedForm, cachedPage, keepPage, purgeProjectPages } from '../src/pages/cache.ts';
import { database } from '../src/store/db.ts';
import { fetchWorker, fetchWorkerWith } from './helpers.ts';
import { LOGOS } from './logos.ts';
import { api, BASE, newProject, ok, operatorToken } from './manage/helpers.ts';
import { mockSiteverify, verdict } from './siteverify.ts';

const FIELDS = [
  {
    name: 'email',
    type: 'string',
    required: true,
    rules: { format: 'email' },
    label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
    help: { en: 'We answer here.', de: 'Wir antworten hierhin.' },
  },
  { name: 'message', type: 'string', placeholder: { en: 'Hello…', de: 'Hallo…' } },
];

const pageAt = (formId: string, headers: Record<string, string> = {}, query = '') =>
  fetchWorker(new Request(`${BASE}/f/${formId}${query}`, { headers }));

/**
 * The page once the cache holds it: the first render after a change to its project (the page
 * turned on) keeps nothing until it knows that project's last purge, so a page is kept by its
 * second render at the latest and found by the third.
 */
async function cachedAt(get: () => Promise<Response>): Promise<Response> {
  for (let i = 0; i < 3; i++) {
    const res = await get();
    if (res.headers.get('X-Cache') === 'hit') return res;
    await res.text();
  }
  return get();
}

async function projectWithPage(page: Record<string, unknown> = {}) {
  const made = await newProject(FIELDS);
  await ok(
    await api('PATCH', `/projects/${made.projectId}`, {
      body: {
        page: {
          enabled: true,
          languages: ['en', 'de'],
          title: { en: 'Sign up', de: 'Anmeldung' },
          intro: { en: 'Tell us.\n\nWe read everything.', de: 'Erzählen Sie.' },
          ...page,
        },
      },
    }),
  );
  return made;
}

describe('C44: a hosted form page', () => {
  it('is a plain 404 page until its owner turns it on', async () => {
    const { formId } = await newProject(FIELDS);
    const res = await pageAt(formId);
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<h1>Not found</h1>');
  });

  it('speaks the language Accept-Language asks for among its own, ?lang= first, else its first', async () => {
    const { formId } = await projectWithPage();
    const de = await pageAt(formId, { 'Accept-Language': 'fr;q=0.9, de-AT, en;q=0.5' });
    expect(de.status).toBe(200);
    expect(de.headers.get('Content-Language')).toBe('de');
    const html = await de.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<title>Anmeldung</title>');
    expect(html).toContain('<label for="f-email">Ihre E-Mail-Adresse</label>');
    expect(html).toContain('aria-describedby="f-email-help"');
    expect(html).toContain('<small id="f-email-help" class="help">Wir antworten hierhin.</small>');
    expect(html).toContain('placeholder="Hallo…"');
    expect(html).toContain('<button type="submit">Senden</button>');
    // The switch to the other language, each named in itself.
    expect(html).toContain('<a href="?lang=en" hreflang="en" lang="en">English</a>');
    expect(html).toContain('aria-current="true">Deutsch</a>');
    const en = await pageAt(formId, { 'Accept-Language': 'de' }, '?lang=en');
    expect(en.headers.get('Content-Language')).toBe('en');
    expect(await en.text()).toContain('<p>Tell us.</p><p>We read everything.</p>');
    // A language the page does not speak, asked both ways: its first.
    const other = await pageAt(formId, { 'Accept-Language': 'ja' }, '?lang=xx');
    expect(other.headers.get('Content-Language')).toBe('en');
  });

  it('posts to its form address with scripts off, and to the same with the widget', async () => {
    const { formId } = await projectWithPage();
    const html = await (await pageAt(formId)).text();
    const action = `${BASE}/f/${formId}`;
    expect(html).toContain(
      `<form method="post" action="${action}" enctype="multipart/form-data" data-checks="worker" data-endpoint="${action}" data-key=""`,
    );
    expect(html).toContain(`<script src="${BASE}/widget.js" defer></script>`);
    const form = new FormData();
    form.set('email', 'ada@example.com');
    const sent = await fetchWorker(new Request(action, { method: 'POST', body: form }));
    expect(sent.status).toBe(200);
  });

  it('answers a post from itself with scripts off in its look and language: what to fix, or its thanks', async () => {
    const { formId } = await projectWithPage({ thanks: { de: 'Danke, wir melden uns.' } });
    const post = (email: string, lang = 'de') => {
      const form = new FormData();
      form.set('email', email);
      return fetchWorker(
        new Request(`${BASE}/f/${formId}`, {
          method: 'POST',
          body: form,
          headers: { Referer: `${BASE}/f/${formId}?lang=${lang}` },
        }),
      );
    };
    const refused = await post('ada@');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('Content-Language')).toBe('de');
    const page = await refused.text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('Das Formular wurde nicht gesendet:');
    expect(page).toContain('<li>„Ihre E-Mail-Adresse“ muss eine E-Mail-Adresse sein.</li>');
    expect(page).toContain(`<a href="/f/${formId}?lang=de">Zurück zum Formular</a>`);
    const sent = await post('ada@example.com');
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Danke, wir melden uns.');
    // English, the page's first language, has no thanks of its own: the page's, in English, never
    // the German one; on the page too.
    const english = await (await post('bo@example.com', 'en')).text();
    expect(english).toContain('Thank you! Your form was sent.');
    expect(english).not.toContain('Danke');
    expect(await (await pageAt(formId, {}, '?lang=en')).text()).toContain(
      'data-success="Thank you! Your form was sent."',
    );
    // From another page, the plain pages, as before.
    const form = new FormData();
    form.set('email', 'ada@');
    const elsewhere = await fetchWorker(new Request(`${BASE}/f/${formId}`, { method: 'POST', body: form }));
    expect(await elsewhere.text()).toContain('Field &#39;email&#39; must be an email address');
  });

  it('has a strict policy: no inline script, its one style by its hash', async () => {
    const { formId } = await projectWithPage({ accent: '#ffcc00', theme: 'dark' });
    const res = await pageAt(formId);
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    const html = await res.text();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe');
    const style = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? '';
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style)));
    expect(csp).toContain(`style-src 'sha256-${btoa(String.fromCharCode(...digest))}'`);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    // A light accent gets dark text on its button, a dark theme its colours.
    expect(style).toContain('--a:#ffcc00;--on:#000');
    expect(style).toContain('color-scheme:dark');
  });

  it("C22: shows Turnstile's widget, by its site key, when its project checks Turnstile; its policy allows Turnstile then only", async () => {
    const { projectId, formId } = await projectWithPage({ turnstileSiteKey: '1x00000000000000000000AA' });
    const without = await pageAt(formId);
    expect(await without.text()).not.toContain('cf-turnstile');
    expect(without.headers.get('Content-Security-Policy')).not.toContain('challenges.cloudflare.com');
    // Checking Turnstile while the page is on needs the site key the page shows it by.
    const patch = (body: unknown) => api('PATCH', `/projects/${projectId}`, { body });
    const secret = '1x0000000000000000000000000000000AA';
    const refused = await patch({ turnstileSecret: secret, page: { turnstileSiteKey: null } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("needs its site key: set the page's turnstileSiteKey too");
    await ok(await patch({ turnstileSecret: secret }));
    const res = await pageAt(formId, { 'Accept-Language': 'de' });
    const html = await res.text();
    expect(html).toContain(
      '<div class="cf-turnstile" data-sitekey="1x00000000000000000000AA" data-language="de"></div>',
    );
    expect(html).toContain(
      '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script>',
    );
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(csp).toContain('frame-src https://challenges.cloudflare.com');
    // Its token travels as a plain form's does (cf-turnstile-response), to siteverify.
    const siteverify = mockSiteverify(() => verdict(true));
    try {
      const form = new FormData();
      form.set('email', 'ada@example.com');
      form.set('cf-turnstile-response', 'XXXX.DUMMY.TOKEN.XXXX');
      const posted = await fetchWorker(
        new Request(`${BASE}/f/${formId}`, {
          method: 'POST',
          body: form,
          headers: { Accept: 'application/json' },
        }),
      );
      expect(posted.status).toBe(201);
      expect(siteverify.calls.map((f) => f.get('response'))).toEqual(['XXXX.DUMMY.TOKEN.XXXX']);
      // With scripts off there is no token: the page says so first, and the refusal is in its
      // language too, as every single cause is.
      expect(html).toContain(
        '<noscript><p class="note">Die Spam-Prüfung dieses Formulars braucht JavaScript: Schalten Sie es ein, um das Formular zu senden.</p></noscript>',
      );
      const plain = new FormData();
      plain.set('email', 'ada@example.com');
      const refusedPost = await fetchWorker(
        new Request(`${BASE}/f/${formId}`, {
          method: 'POST',
          body: plain,
          headers: { Referer: `${BASE}/f/${formId}?lang=de` },
        }),
      );
      expect(refusedPost.status).toBe(403);
      expect(await refusedPost.text()).toContain(
        '<li>Die Prüfung, ob Sie ein Mensch sind, ist fehlgeschlagen. Bitte versuchen Sie es erneut.</li>',
      );
    } finally {
      siteverify.spy.mockRestore();
    }
  });

  it('says whose form it is, asks for no password in its own words, and escapes what its owner wrote', async () => {
    const { formId } = await projectWithPage({ title: { en: '<script>alert(1)</script>' } });
    const html = await (await pageAt(formId, {}, '?lang=en')).text();
    expect(html).toContain('A form of Inbox test, hosted by forms.test.');
    expect(html).toContain('Never enter a password or a card number in this form.');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).not.toContain('type="password"');
    expect(html).not.toMatch(/autocomplete="(?:current-password|new-password|cc-)/);
  });

  it('shows its logo from the project’s bucket, at an address that changes with its bytes', async () => {
    const { formId, projectId } = await projectWithPage();
    expect((await fetchWorker(new Request(`${BASE}/f/${formId}/logo`))).status).toBe(404);
    const put = await fetchWorker(
      new Request(`${BASE}/api/v1/projects/${projectId}/page/logo`, {
        method: 'PUT',
        body: LOGOS['image/png'],
        headers: { Authorization: `Bearer ${operatorToken()}`, 'Content-Type': 'image/png' },
      }),
    );
    expect(put.status).toBe(200);
    const html = await (await pageAt(formId, {}, '?lang=en')).text();
    expect(html).toMatch(new RegExp(`<img src="${BASE}/f/${formId}/logo\\?v=[0-9a-f]{12}" alt="Inbox test"`));
    const logo = await fetchWorker(new Request(`${BASE}/f/${formId}/logo`));
    expect(logo.status).toBe(200);
    expect(logo.headers.get('Content-Type')).toBe('image/png');
    expect(logo.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await logo.arrayBuffer())).toEqual(LOGOS['image/png']);
  });

  it('is previewed through the management API as its visitors would see it, on or off, never cached, its logo inside it', async () => {
    const { formId, projectId } = await projectWithPage({ enabled: false });
    const preview = (query = '') =>
      fetchWorker(
        new Request(`${BASE}/api/v1/projects/${projectId}/page/preview${query}`, {
          headers: { Authorization: `Bearer ${operatorToken()}` },
        }),
      );
    expect((await pageAt(formId)).status).toBe(404);
    const off = await preview('?lang=de');
    expect(off.status).toBe(200);
    expect(off.headers.get('Cache-Control')).toBe('no-store');
    expect(off.headers.get('Content-Language')).toBe('de');
    const html = await off.text();
    expect(html).toContain('<title>Anmeldung</title>');
    expect(html).toContain('<label for="f-email">Ihre E-Mail-Adresse</label>');
    // It names no script: its frame runs none, and so fetches none.
    expect(off.headers.get('Content-Security-Policy')).toContain("script-src 'none'");
    expect(html).not.toContain('<script');
    // Sandboxed even when opened alone (of its own origin, so the dashboard can read its height,
    // and running nothing); its language links go to the page's own address.
    expect(off.headers.get('Content-Security-Policy')).toMatch(/; sandbox allow-same-origin$/);
    expect(html).toContain(`<a href="${BASE}/f/${formId}?lang=en" hreflang="en"`);
    await fetchWorker(
      new Request(`${BASE}/api/v1/projects/${projectId}/page/logo`, {
        method: 'PUT',
        body: LOGOS['image/png'],
        headers: { Authorization: `Bearer ${operatorToken()}`, 'Content-Type': 'image/png' },
      }),
    );
    const withLogo = await preview();
    expect(withLogo.headers.get('Content-Language')).toBe('en');
    expect(withLogo.headers.get('Content-Security-Policy')).toContain("img-src 'self' data:;");
    const src = /<img src="data:image\/png;base64,([^"]+)"/.exec(await withLogo.text())?.[1] ?? '';
    expect(Uint8Array.from(atob(src), (ch) => ch.charCodeAt(0))).toEqual(LOGOS['image/png']);
    // A query it does not know is refused, as every route's.
    expect((await preview('?language=de')).status).toBe(400);
  });

  it('is served from the edge cache, and a change to the project purges it', async () => {
    const { formId, projectId } = await projectWithPage();
    const first = await pageAt(formId, {}, '?lang=de');
    expect(first.headers.get('X-Cache')).toBe('miss');
    await first.text();
    const second = await cachedAt(() => pageAt(formId, {}, '?lang=de'));
    expect(second.headers.get('X-Cache')).toBe('hit');
    expect(await second.text()).toContain('<title>Anmeldung</title>');
    await ok(
      await api('PATCH', `/projects/${projectId}`, { body: { page: { title: { de: 'Neu: Anmeldung' } } } }),
    );
    const changed = await pageAt(formId, {}, '?lang=de');
    expect(changed.headers.get('X-Cache')).toBe('miss');
    expect(await changed.text()).toContain('<title>Neu: Anmeldung</title>');
    // Turned off, it is gone at once.
    await ok(await api('PATCH', `/projects/${projectId}`, { body: { page: { enabled: false } } }));
    expect((await pageAt(formId, {}, '?lang=de')).status).toBe(404);
  });

  it('turned off, is gone at once under every host name it was served under', async () => {
    const { formId, projectId } = await projectWithPage();
    const hosts = ['https://forms.test', 'https://forms.example.org', 'https://www.example.net'];
    const at = (host: string) => fetchWorker(new Request(`${host}/f/${formId}?lang=de`));
    for (const host of hosts) {
      const again = await cachedAt(() => at(host));
      expect(again.headers.get('X-Cache'), host).toBe('hit');
      // Each host's page names its own address.
      expect(await again.text()).toContain(`action="${host}/f/${formId}"`);
    }
    // Turned off through one of them.
    await ok(await api('PATCH', `/projects/${projectId}`, { body: { page: { enabled: false } } }));
    for (const host of hosts) expect((await at(host)).status, host).toBe(404);
  });

  it('a render still in flight when the project changes keeps nothing older than the change', async () => {
    const { formId, projectId } = await projectWithPage();
    const page = { formId, projectId, lang: 'de', languages: ['de', 'en'] };
    const kept = () =>
      new Response('the page as it was', { headers: { 'Cache-Control': 'public, max-age=10' } });
    // Begun, then the project changes (and is purged), then the render ends: nothing is kept.
    const late = await beginRender(formId);
    await purgeProjectPages(projectId);
    await keepPage(late, BASE, page, kept(), 10);
    const after = await cachedForm(formId);
    expect(
      after === undefined || (await cachedPage(BASE, formId, 'de', after.generation)) === undefined,
    ).toBe(true);
    // Begun after the change: kept, and found.
    const fresh = await beginRender(formId);
    await new Promise((r) => setTimeout(r, 5));
    await keepPage(fresh, BASE, page, kept(), 10);
    const now = await cachedForm(formId);
    expect(await (await cachedPage(BASE, formId, 'de', now?.generation ?? ''))?.text()).toBe(
      'the page as it was',
    );
    // Kept, then purged: no host finds it again.
    await purgeProjectPages(projectId);
    const purged = await cachedForm(formId);
    expect(purged?.generation).not.toBe(now?.generation);
    // Two renders begun before a purge, one kept before it and one after: neither is found after.
    const [first, second] = [await beginRender(formId), await beginRender(formId)];
    await keepPage(first, BASE, page, kept(), 10);
    await purgeProjectPages(projectId);
    await keepPage(second, BASE, page, kept(), 10);
    const latest = await cachedForm(formId);
    expect(
      latest === undefined || (await cachedPage(BASE, formId, 'de', latest.generation)) === undefined,
    ).toBe(true);
    // A render that holds a generation which is no longer the form's keeps nothing under it.
    const current = await beginRender(formId);
    await keepPage(current && { ...current, generation: 'replaced' }, BASE, page, kept(), 10);
    expect(await cachedPage(BASE, formId, 'de', 'replaced')).toBeUndefined();
  });

  it('asked for over http, is never served to a visitor over https (its address is in it)', async () => {
    const { formId } = await projectWithPage();
    const plain = await cachedAt(() => fetchWorker(new Request(`http://forms.test/f/${formId}?lang=de`)));
    expect(plain.headers.get('X-Cache')).toBe('hit');
    expect(await plain.text()).toContain('action="http://forms.test/');
    const secure = await fetchWorker(new Request(`https://forms.test/f/${formId}?lang=de`));
    expect(secure.headers.get('X-Cache')).toBe('miss');
    expect(await secure.text()).toContain('action="https://forms.test/');
  });

  it('is a plain 404 page for a project moving or deleted, an address of no form, or pages turned off', async () => {
    const moving = await projectWithPage();
    await database(env.DB)
      .update(projects)
      .set({ movingSince: new Date().toISOString() })
      .where(eq(projects.id, moving.projectId));
    expect((await pageAt(moving.formId)).status).toBe(404);
    const deleted = await projectWithPage();
    expect((await pageAt(deleted.formId)).status).toBe(200);
    await ok(await api('DELETE', `/projects/${deleted.projectId}`));
    expect((await pageAt(deleted.formId)).status).toBe(404);
    expect((await pageAt('f_nosuchform0')).status).toBe(404);
    const on = await projectWithPage();
    const off = await fetchWorkerWith(
      { ...env, HOSTED_PAGES: 'false' } as unknown as Env,
      new Request(`${BASE}/f/${on.formId}?lang=en`),
    );
    expect(off.status).toBe(404);
    expect(await off.text()).toContain('Not found');
  });
});
