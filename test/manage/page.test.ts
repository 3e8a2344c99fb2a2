// C44 + C32: a project's hosted page over the management API: off until its owner turns it on; its
// settings changed member by member (`PATCH /projects/:id {"page": …}`), each bad one a 400 in the
// sentence the tool prints; its logo (PNG, JPEG, WebP or GIF, its bytes of its type, at most 256
// KiB, never SVG) kept in the project's bucket, removed, and deleted with the project; every change
// in the audit log, never the logo's bytes.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fileDeletions } from '../../schema/tables.ts';
import { logoKey, MAX_LOGO_BYTES } from '../../src/files/logo.ts';
import type { PageView as Page } from '../../src/ops/project-view.ts';
import { database } from '../../src/store/db.ts';
import { fetchWorker } from '../helpers.ts';
import { LOGOS, SVG } from '../logos.ts';
import { DEFAULT_PAGE, GERMAN_PAGE } from '../page-fixtures.ts';
import { api, BASE, newProject, ok, operatorToken, problem, secretKeyOf } from './helpers.ts';

type Entry = { actor: string; action: string; detail: Record<string, unknown> | null };

const auditOf = async (projectId: string) =>
  (await ok<{ entries: Entry[] }>(await api('GET', `/projects/${projectId}/audit`))).entries;
const pageOf = async (projectId: string) =>
  (await ok<{ project: { page: Page } }>(await api('GET', `/projects/${projectId}`))).project.page;
const patchPage = (projectId: string, page: unknown, token?: string) =>
  api('PATCH', `/projects/${projectId}`, { body: { page }, ...(token === undefined ? {} : { token }) });

/** PUT …/page/logo with the bytes as the body, as the tool sends a file. */
const putLogo = (
  projectId: string,
  bytes: Uint8Array | ReadableStream,
  type: string,
  token = operatorToken(),
) =>
  fetchWorker(
    new Request(`${BASE}/api/v1/projects/${projectId}/page/logo`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': type },
      body: bytes,
      ...(bytes instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
  );
const hex = async (bytes: Uint8Array) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

describe('C44: the page settings', () => {
  it('are off by default; PATCH page changes the members given and keeps the others', async () => {
    const p = await newProject();
    expect(await pageOf(p.projectId)).toEqual(DEFAULT_PAGE);
    const first = await ok<{ project: { page: Page } }>(
      await patchPage(p.projectId, {
        languages: ['DE', 'en-gb'],
        title: { de: 'Schreiben Sie uns', 'en-GB': 'Write to us' },
        intro: { de: 'Zeile eins\r\nZeile zwei' },
        thanks: { de: 'Danke!' },
        accent: '#AA0044',
        theme: 'dark',
      }),
    );
    const set = GERMAN_PAGE;
    expect(first.project.page).toEqual(set);
    // `{"page": {"enabled": true}}` turns it on alone.
    const on = await ok<{ project: { page: Page } }>(await patchPage(p.projectId, { enabled: true }));
    expect(on.project.page).toEqual({ ...set, enabled: true });
    // A map given replaces the whole map; `{}` or null is none; a language not spoken is kept.
    await ok(await patchPage(p.projectId, { title: { fr: 'Écrivez-nous' }, thanks: null, intro: {} }));
    expect(await pageOf(p.projectId)).toEqual({
      ...set,
      enabled: true,
      title: { fr: 'Écrivez-nous' },
      intro: {},
      thanks: {},
    });
    await ok(await patchPage(p.projectId, {}));
    // Other settings and the page in one PATCH: each recorded as what it is.
    await ok(
      await api('PATCH', `/projects/${p.projectId}`, {
        body: { retentionDays: 30, page: { enabled: false } },
      }),
    );
    const entries = await auditOf(p.projectId);
    expect(entries.slice(0, 4).map((e) => [e.action, e.detail])).toEqual([
      ['project.update', { retentionDays: 30 }],
      ['page.update', { enabled: false }],
      ['page.update', { title: { fr: 'Écrivez-nous' }, intro: {}, thanks: {} }],
      ['page.update', { enabled: true }],
    ]);
    expect(entries[4]).toMatchObject({ actor: 'operator', action: 'page.update', detail: { theme: 'dark' } });
  });

  it("a project's secret key may change its own page; each bad member is 400 in the tool's sentence, and changes nothing", async () => {
    const p = await newProject();
    const secret = await secretKeyOf(p.projectId);
    await ok(await patchPage(p.projectId, { enabled: true }, secret));
    expect((await auditOf(p.projectId))[0]).toMatchObject({
      action: 'page.update',
      actor: expect.stringMatching(/^key:/),
    });
    const before = await pageOf(p.projectId);
    const cases: [unknown, string][] = [
      [{ enabled: 'yes' }, "The page's enabled is true or false"],
      [
        { languages: [] },
        'The page\'s languages are 1 to 10 language tags, the first its default, e.g. ["en", "de"]',
      ],
      [{ languages: ['en', 'EN'] }, "The language 'en' is given twice in the page's languages"],
      [
        { languages: ['e'] },
        "Invalid language tag 'e' in the page's languages: a BCP 47 tag such as en, de or pt-BR",
      ],
      [{ title: { en: 'a\nb' } }, "The page's title in 'en' holds U+000A: it is one line"],
      [{ intro: { en: 'x'.repeat(2001) } }, "The page's intro in 'en' is 2001 characters: at most 2000"],
      [{ thanks: { en: 'a\u0000' } }, "The page's thanks in 'en' holds U+0000: no control characters"],
      [{ accent: 'blue' }, "The page's accent is a colour as #rrggbb, e.g. #1f5fbf: not 'blue'"],
      [{ theme: 'sepia' }, "The page's theme is auto, light, dark: not 'sepia'"],
      [
        { logo: null },
        "The page's logo is set by itself: PUT /api/v1/projects/<id>/page/logo, or forms page logo",
      ],
      [
        { colour: '#000000' },
        "Unknown member 'colour' of the page: use enabled, languages, title, intro, thanks, accent, theme, turnstileSiteKey, steps",
      ],
      ['on', 'The page is an object of the settings to change, e.g. {"enabled": true}'],
    ];
    for (const [page, sentence] of cases) {
      // With another setting beside it: nothing of the request changes.
      const res = await api('PATCH', `/projects/${p.projectId}`, { body: { retentionDays: 9, page } });
      const data = await ok<{ error: { message: string; code: string } }>(res, 400);
      expect(data.error, JSON.stringify(page)).toEqual({ message: sentence, code: 'invalid_request' });
    }
    expect(await pageOf(p.projectId)).toEqual(before);
    const project = await ok<{ project: { retentionDays: number | null } }>(
      await api('GET', `/projects/${p.projectId}`),
    );
    expect(project.project.retentionDays).toBeNull();
  });
});

describe("C44: the page's logo", () => {
  it('is set from each raster type, kept in the bucket of its place, replaced, and removed; the audit log has no bytes', async () => {
    const p = await newProject();
    for (const [type, bytes] of Object.entries(LOGOS)) {
      const set = await ok<{ project: { page: Page } }>(await putLogo(p.projectId, bytes, `${type}; q=1`));
      expect(set.project.page.logo).toEqual({ type, size: bytes.length, sha256: await hex(bytes) });
      const stored = await env.FILES.get(logoKey(p.projectId));
      expect(new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
      expect(stored?.httpMetadata?.contentType).toBe(type);
    }
    expect((await pageOf(p.projectId)).logo?.type).toBe('image/gif');
    const entries = await auditOf(p.projectId);
    expect(entries[0]).toMatchObject({
      action: 'page.logo',
      detail: { type: 'image/gif', size: LOGOS['image/gif'].length, sha256: await hex(LOGOS['image/gif']) },
    });
    expect(Object.keys(entries[0]?.detail ?? {}).sort()).toEqual(['sha256', 'size', 'type']);
    const removed = await ok<{ project: { page: Page } }>(
      await api('DELETE', `/projects/${p.projectId}/page/logo`),
    );
    expect(removed.project.page.logo).toBeNull();
    expect(await env.FILES.head(logoKey(p.projectId))).toBeNull();
    expect((await auditOf(p.projectId))[0]).toMatchObject({ action: 'page.logo.remove', detail: null });
    expect(await problem(await api('DELETE', `/projects/${p.projectId}/page/logo`), 404)).toBe(
      `The page of project '${p.projectId}' has no logo`,
    );
  });

  it('is refused as SVG or any other type (415), as bytes of another type (400), over 256 KiB (413); nothing is kept', async () => {
    const p = await newProject();
    const refusal = async (res: Response, status: 400 | 413 | 415) =>
      (await ok<{ error: { message: string; code: string } }>(res, status)).error;
    expect(await refusal(await putLogo(p.projectId, SVG, 'image/svg+xml'), 415)).toEqual({
      code: 'unsupported_media_type',
      message:
        "A logo is a PNG, JPEG, WebP or GIF image (image/png, image/jpeg, image/webp, image/gif), not 'image/svg+xml': an SVG image can carry script",
    });
    expect(
      (await refusal(await putLogo(p.projectId, LOGOS['image/png'], 'application/json'), 415)).message,
    ).toContain("not 'application/json'");
    expect(await refusal(await putLogo(p.projectId, SVG, 'image/png'), 400)).toEqual({
      code: 'invalid_request',
      message:
        "The logo's bytes are not a PNG image, as its type image/png says: send the type its bytes are",
    });
    expect(
      (await refusal(await putLogo(p.projectId, LOGOS['image/jpeg'], 'image/gif'), 400)).message,
    ).toContain('not a GIF image');
    const big = new Uint8Array(MAX_LOGO_BYTES + 1);
    big.set(LOGOS['image/png']);
    const tooLarge = {
      code: 'body_too_large',
      message: 'A logo is at most 262144 bytes (256 KiB): make it smaller, or save it at a lower quality',
    };
    expect(await refusal(await putLogo(p.projectId, big, 'image/png'), 413)).toEqual(tooLarge);
    // Streamed, with no Content-Length: reading stops at the limit.
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(big.subarray(i * 60_000, (i + 1) * 60_000));
        controller.close();
      },
    });
    expect(await refusal(await putLogo(p.projectId, stream, 'image/png'), 413)).toEqual(tooLarge);
    const exact = big.subarray(0, MAX_LOGO_BYTES);
    expect(
      (await ok<{ project: { page: Page } }>(await putLogo(p.projectId, exact, 'image/png'))).project.page
        .logo?.size,
    ).toBe(MAX_LOGO_BYTES);
    expect((await auditOf(p.projectId)).filter((e) => e.action === 'page.logo')).toHaveLength(1);
  });

  it("goes with its project: deleting the project queues the logo's deletion from its bucket", async () => {
    const p = await newProject();
    await ok(await putLogo(p.projectId, LOGOS['image/webp'], 'image/webp'));
    await ok(await api('DELETE', `/projects/${p.projectId}`));
    const queued = await database(env.DB)
      .select({ prefix: fileDeletions.prefix })
      .from(fileDeletions)
      .where(eq(fileDeletions.prefix, `${p.projectId}/page/`));
    expect(queued).toEqual([{ prefix: `${p.projectId}/page/` }]);
  });
});
