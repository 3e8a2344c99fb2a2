// C41 + C44: a move between places carries what a project's fields show, its hosted page's settings
// and its logo: the project is the same where it lands (but for its place), the logo's bytes are in
// the new place's bucket, and the place it left deletes its copy with the minute's sweep; moved back
// at once, the copy it brings is not deleted by the sweep its leaving queued.
import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { logoKey } from '../src/files/logo.ts';
import worker from '../src/index.ts';
import { fetchWorker } from './helpers.ts';
import { LOGOS } from './logos.ts';
import { api, BASE, newProject, ok, operatorToken } from './manage/helpers.ts';

type View = Record<string, unknown> & { place: string; page: { logo: unknown } };

const show = async (projectId: string) =>
  (await ok<{ project: View }>(await api('GET', `/projects/${projectId}`))).project;
const move = async (projectId: string, to: string) =>
  ok<{ files: number; project: View }>(await api('POST', `/projects/${projectId}/move`, { body: { to } }));
const sweep = () =>
  worker.scheduled?.(createScheduledController({ cron: '* * * * *', scheduledTime: Date.now() }), env);
const logoIn = async (bucket: R2Bucket, projectId: string) => {
  const object = await bucket.get(logoKey(projectId));
  return object === null ? null : new Uint8Array(await object.arrayBuffer());
};

describe('C41 + C44: a move carries the labels, the page and its logo', () => {
  it('lands the same but for its place; the logo is in the new bucket; the old copy leaves with the sweep', async () => {
    const { projectId } = await newProject([
      {
        name: 'email',
        type: 'string',
        required: true,
        label: { en: 'Your email', de: 'Ihre E-Mail-Adresse' },
        help: { en: 'We reply within a day.' },
        placeholder: { en: 'ada@example.com' },
      },
    ]);
    await ok(
      await api('PATCH', `/projects/${projectId}`, {
        body: {
          page: {
            enabled: true,
            languages: ['de', 'en'],
            title: { de: 'Schreiben Sie uns' },
            intro: { de: 'Zeile eins\nZeile zwei' },
            thanks: { en: 'Thanks!' },
            accent: '#aa0044',
            theme: 'light',
          },
        },
      }),
    );
    const png = LOGOS['image/png'];
    await ok(
      await fetchWorker(
        new Request(`${BASE}/api/v1/projects/${projectId}/page/logo`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${operatorToken()}`, 'Content-Type': 'image/png' },
          body: png,
        }),
      ),
    );
    const before = await show(projectId);
    expect(before.page.logo).not.toBeNull();

    const moved = await move(projectId, 'eu');
    expect(moved.files).toBe(1);
    expect(moved.project).toEqual({ ...before, place: 'eu' });
    expect(await show(projectId)).toEqual({ ...before, place: 'eu' });
    expect(await logoIn(env.FILES_EU, projectId)).toEqual(png);
    // The place it left deletes its copy with its sweep.
    expect(await logoIn(env.FILES, projectId)).toEqual(png);
    await sweep();
    expect(await logoIn(env.FILES, projectId)).toBeNull();
    expect(await logoIn(env.FILES_EU, projectId)).toEqual(png);
  });

  it('moved back before the sweep of the place it left, the logo it brings back stays', async () => {
    const { projectId } = await newProject([{ name: 'email', type: 'string' }]);
    const gif = LOGOS['image/gif'];
    await ok(
      await fetchWorker(
        new Request(`${BASE}/api/v1/projects/${projectId}/page/logo`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${operatorToken()}`, 'Content-Type': 'image/gif' },
          body: gif,
        }),
      ),
    );
    await move(projectId, 'eu');
    const back = await move(projectId, 'default');
    expect(back.project.page.logo).toMatchObject({ type: 'image/gif', size: gif.length });
    await sweep();
    expect(await logoIn(env.FILES, projectId)).toEqual(gif);
    expect(await logoIn(env.FILES_EU, projectId)).toBeNull();
  });
});
