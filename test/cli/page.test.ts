// `forms page …` (C44): a project's hosted page shown and changed, and its logo set from a file and
// removed, through the operations the management API calls; and `project move` (C41) carrying what
// the fields show, the page and its logo, end to end against a temporary local database.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logoKey } from '../../src/files/logo.ts';
import type { PageView as Page } from '../../src/ops/project-view.ts';
import { LOGOS, SVG } from '../logos.ts';
import { GERMAN_PAGE } from '../page-fixtures.ts';
import { inProcess, toolOnTemp } from './helpers.ts';

const tool = toolOnTemp('page');
const { forms, json, expectRefused, newProject } = tool;

/** A file in the database's folder. */
function file(name: string, bytes: Uint8Array): string {
  const path = join(tool.database.dir, name);
  writeFileSync(path, bytes);
  return path;
}

const bucket = (place: string) => {
  const b = tool.database.files?.(place);
  if (b === undefined) throw new Error(`no bucket for ${place}`);
  return b;
};

describe('forms page (C44)', () => {
  it('show: off until turned on, in English; set changes what it is given and keeps the rest', async () => {
    const p = await newProject();
    const shown = await forms('page', 'show', p.projectId);
    expect(shown.stdout).toBe(
      [
        `Hosted page of ${p.projectId}: off (turn it on: forms page set ${p.projectId} --on)`,
        'Languages: en (the first is its default)',
        'Title: (none)',
        'Intro: (none)',
        'Thanks: (none)',
        'Accent: #1f5fbf',
        'Theme: auto',
        'Logo: (none)',
        'Turnstile site key: (none)',
        'Drafts (partial submissions): off',
        '',
      ].join('\n'),
    );
    const set = await json<{ projectId: string; page: Page }>(
      'page',
      'set',
      p.projectId,
      '--languages',
      'DE, en-gb',
      '--title',
      'de=Schreiben Sie uns',
      '--title',
      'en-GB=Write to us',
      '--intro',
      'de=Zeile eins\nZeile zwei',
      '--thanks',
      'de=Danke!',
      '--accent',
      '#AA0044',
      '--theme',
      'dark',
    );
    const after = GERMAN_PAGE;
    expect(set).toEqual({ projectId: p.projectId, page: after, partials: { enabled: false, keepDays: 30 } });
    const on = await forms('page', 'set', p.projectId, '--on', '--no-thanks');
    expect(on.stdout).toContain(`Hosted page of ${p.projectId}: on\n`);
    expect(on.stdout).toContain(
      'Title: de "Schreiben Sie uns", en-GB "Write to us"\nIntro: de "Zeile eins\\nZeile zwei"\n',
    );
    expect(on.stdout).toContain('Thanks: (none)\n');
    expect(await json('page', 'show', p.projectId)).toEqual({
      projectId: p.projectId,
      page: { ...after, enabled: true, thanks: {} },
      partials: { enabled: false, keepDays: 30 },
    });
    expect((await forms('project', 'show', p.projectId)).stdout).toContain(
      `Hosted page: on, in de, en-GB (forms page show ${p.projectId})\n`,
    );
    // C32: each change in the audit log, as the API's.
    const audit = await json<{ entries: { action: string; actor: string }[] }>('audit', p.projectId);
    expect(audit.entries.slice(0, 2).map((e) => [e.action, e.actor])).toEqual([
      ['page.update', 'tool'],
      ['page.update', 'tool'],
    ]);
  });

  it.each([
    [['--languages', 'en,EN'], "forms: The language 'en' is given twice in the page's languages"],
    [
      ['--languages', 'en,British English'],
      "forms: Invalid language tag 'British English' in the page's languages",
    ],
    [['--title', 'en=a\nb'], "forms: The page's title in 'en' holds U+000A: it is one line"],
    [
      ['--intro', `en=${'x'.repeat(2001)}`],
      "forms: The page's intro in 'en' is 2001 characters: at most 2000",
    ],
    [['--title', 'Hello'], "forms: Give the page's title as <language>=<text>, e.g. en=Hello: not 'Hello'"],
    [['--accent', 'red'], "forms: The page's accent is a colour as #rrggbb, e.g. #1f5fbf: not 'red'"],
    [['--theme', 'sepia'], /Allowed choices are auto, light, dark/],
    [['--on', '--off'], /cannot be used with option '--off'/],
    [
      ['--turnstile-site-key', '0x4AAA secret'],
      "forms: Invalid Turnstile site key: copy the site key (not the secret) from the Turnstile widget's settings, e.g. 0x4AAAAAAA…",
    ],
    [
      [],
      'forms: Nothing to change: give --on, --off, --languages, --title, --intro, --thanks, --accent, --theme, --turnstile-site-key, --step or --partials',
    ],
  ])('set %j → exit 2, one line, nothing changed', async (options, message) => {
    const p = await newProject();
    await expectRefused(['page', 'set', p.projectId, ...options], message);
  });

  it("C22: a project that checks Turnstile has its page on only with the widget's site key", async () => {
    const p = await newProject();
    const withSecret = inProcess(tool.database, { env: { TURNSTILE_SECRET: '0x4AAAAAAAtest-secret' } });
    expect((await withSecret('project', 'set', p.projectId, '--turnstile')).code).toBe(0);
    const needed =
      "forms: While its project checks Turnstile, a page that is on shows Turnstile's widget, which needs its site key: set the page's turnstileSiteKey too (forms page set <project> --turnstile-site-key <key>)";
    await expectRefused(['page', 'set', p.projectId, '--on'], needed);
    const on = await json<{ page: Page }>(
      'page',
      'set',
      p.projectId,
      '--on',
      '--turnstile-site-key',
      '1x00000000000000000000AA',
    );
    expect(on.page).toMatchObject({ enabled: true, turnstileSiteKey: '1x00000000000000000000AA' });
    // Neither the key going nor the secret coming back may leave a page on that no one can pass.
    await expectRefused(['page', 'set', p.projectId, '--no-turnstile-site-key'], needed);
    await json('project', 'set', p.projectId, '--no-turnstile');
    expect(
      (await json<{ page: Page }>('page', 'set', p.projectId, '--no-turnstile-site-key')).page,
    ).toMatchObject({
      enabled: true,
      turnstileSiteKey: null,
    });
    const again = await withSecret('project', 'set', p.projectId, '--turnstile');
    expect([again.code, again.stderr]).toEqual([2, `${needed}\n`]);
    // The secret pasted as the key would be published on the page: refused, whichever comes second.
    const published =
      "forms: That is the Turnstile widget's secret, which a page would show to everyone: give the page its site key, and keep the secret the project's alone";
    await json('page', 'set', p.projectId, '--off');
    expect((await withSecret('project', 'set', p.projectId, '--turnstile')).code).toBe(0);
    await expectRefused(
      ['page', 'set', p.projectId, '--turnstile-site-key', '0x4AAAAAAAtest-secret'],
      published,
    );
    // A project left on without a key (made so before the rule) may still change anything else.
    await tool.database.db.$client
      .prepare('update projects set page_enabled = 1, page_turnstile_site_key = null where id = ?')
      .bind(p.projectId)
      .run();
    expect((await forms('project', 'set', p.projectId, '--retention-days', '30')).code).toBe(0);
  });

  it('logo: set from a file (its type by its name, checked against its bytes), kept in the place’s bucket, removed', async () => {
    const p = await newProject();
    const png = file('logo.png', LOGOS['image/png']);
    const set = await forms('page', 'logo', p.projectId, png);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      new RegExp(
        `^Set the logo of ${p.projectId}: image/png, ${LOGOS['image/png'].length} bytes, SHA-256 [0-9a-f]{64}\\.\\n$`,
      ),
    );
    const stored = await bucket('default').get(logoKey(p.projectId));
    expect(new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(LOGOS['image/png']);
    const jpeg = await json<{ logo: { type: string } }>(
      'page',
      'logo',
      p.projectId,
      file('logo.JPG', LOGOS['image/jpeg']),
    );
    expect(jpeg.logo.type).toBe('image/jpeg');
    expect((await forms('page', 'show', p.projectId)).stdout).toContain(
      `Logo: image/jpeg, ${LOGOS['image/jpeg'].length} bytes, SHA-256 `,
    );
    await expectRefused(
      ['page', 'logo', p.projectId, file('logo.svg', SVG)],
      "forms: A logo is a PNG, JPEG, WebP or GIF image (image/png, image/jpeg, image/webp, image/gif), not 'image/svg+xml': an SVG image can carry script\n",
    );
    await expectRefused(
      ['page', 'logo', p.projectId, file('fake.gif', LOGOS['image/png'])],
      "forms: The logo's bytes are not a GIF image, as its type image/gif says: send the type its bytes are\n",
    );
    await expectRefused(
      ['page', 'logo', p.projectId, file('big.png', new Uint8Array(300_000).fill(0x89, 0, 1))],
      'forms: A logo is at most 262144 bytes (256 KiB): make it smaller, or save it at a lower quality\n',
    );
    await expectRefused(
      ['page', 'logo', p.projectId, join(tool.database.dir, 'none.png')],
      /Cannot read the logo/,
    );
    await expectRefused(
      ['page', 'logo', p.projectId],
      'forms: Give the logo’s file, or --remove (not both)\n',
    );
    expect(await json('page', 'logo', p.projectId, '--remove')).toEqual({
      projectId: p.projectId,
      logo: null,
    });
    expect(await bucket('default').head(logoKey(p.projectId))).toBeNull();
    await expectRefused(
      ['page', 'logo', p.projectId, '--remove'],
      `forms: The page of project '${p.projectId}' has no logo\n`,
    );
  });
});

describe('project move (C41) carries what the fields show, the page and its logo (C44)', () => {
  it('the project is the same in the place it moved to, and its logo is in that place’s bucket', async () => {
    const p = await newProject();
    await json(
      'field',
      'set',
      p.projectId,
      'name:string',
      '--label',
      'en=Your name',
      '--help',
      'de=Vor- und Nachname',
    );
    await json(
      'page',
      'set',
      p.projectId,
      '--on',
      '--languages',
      'de,en',
      '--title',
      'de=Kontakt',
      '--theme',
      'light',
      '--turnstile-site-key',
      '0x4AAAAAAAsite-key',
    );
    await json('page', 'logo', p.projectId, file('move.webp', LOGOS['image/webp']));
    const before = await json<Record<string, unknown>>('project', 'show', p.projectId);
    const moved = await json<{ files: number; project: Record<string, unknown> }>(
      'project',
      'move',
      p.projectId,
      '--to',
      'eu',
    );
    expect(moved.files).toBe(1);
    expect(moved.project).toEqual({ ...before, place: 'eu' });
    expect(await json('project', 'show', p.projectId)).toEqual({ ...before, place: 'eu' });
    const there = await bucket('eu').get(logoKey(p.projectId));
    expect(new Uint8Array((await there?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(LOGOS['image/webp']);
    // Its old copy is the place's sweep's to delete (the tool writes no bucket but its own logo's).
    const queued = await tool.database.db.$client
      .prepare('select prefix from file_deletions where prefix = ?')
      .bind(`${p.projectId}/page/`)
      .all();
    expect(queued.results).toEqual([{ prefix: `${p.projectId}/page/` }]);
    expect(readFileSync(join(tool.database.dir, 'move.webp'))).toEqual(Buffer.from(LOGOS['image/webp']));
  });

  it('C46: --step n:lang=text sets the steps’ titles in order; show prints them; a gap is refused; --no-steps clears', async () => {
    const p = await newProject();
    const set = await forms(
      'page',
      'set',
      p.projectId,
      '--step',
      '1:en=About you',
      '--step',
      '2:en=Your request',
      '--step',
      '1:de=Über Sie',
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Step 1: en "About you", de "Über Sie"\nStep 2: en "Your request"');
    expect((await json<{ page: Page }>('page', 'show', p.projectId)).page.steps).toEqual([
      { title: { en: 'About you', de: 'Über Sie' } },
      { title: { en: 'Your request' } },
    ]);
    await expectRefused(
      ['page', 'set', p.projectId, '--step', '2:en=Only the second'],
      '--step 1:<lang>=<text> is missing: steps are numbered from 1',
    );
    await expectRefused(
      ['page', 'set', p.projectId, '--step', 'en=About you'],
      '--step is <n>:<lang>=<text>',
    );
    await json('page', 'set', p.projectId, '--no-steps');
    expect((await json<{ page: Page }>('page', 'show', p.projectId)).page.steps).toEqual([]);
  });
});
