// C37: nothing is sent to an address whose owner has not agreed; a project's key sees only its own
// project, and the operator as "operator"; a route acts only on targets of its own kind.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { NotificationEmail } from '../../src/delivery/mail.ts';
import { fetchWorkerWith, submitWithEnv } from '../helpers.ts';
import { recording } from '../mail.ts';
import { consumeOutbox, deliveryRow } from '../queue.ts';
import { api, BASE, newProject, ok, problem, request, secretKeyOf, signedIn } from './helpers.ts';

type Added = { notificationId: string; state: string; verification?: string };

/** Adds a notification address with a secret key (or as told), in an environment that records mail. */
async function add(testEnv: Env, projectId: string, address: string, token: string) {
  const res = await fetchWorkerWith(
    testEnv,
    request('POST', `/projects/${projectId}/notifications`, { token, body: { address } }),
  );
  return ok<Added>(res, 201);
}

const linkOf = (mail: NotificationEmail | undefined) =>
  /https?:\/\/\S+\/verify\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');

async function stateOf(projectId: string, id: string) {
  const { notifications } = await ok<{ notifications: { notificationId: string; state: string }[] }>(
    await api('GET', `/projects/${projectId}/notifications`),
  );
  return notifications.find((n) => n.notificationId === id)?.state;
}

/**
 * The id of the delivery to `target` of a submission made now (its outbox written), by a worker
 * that caches no project configuration (C17: a change is otherwise seen within its seconds).
 */
async function deliveryOfNew(p: { apiKey: string; projectId: string }, target: string) {
  const uncached = { ...env, CONFIG_CACHE_SECONDS: '0' } as unknown as Env;
  expect((await submitWithEnv(uncached, { key: p.apiKey, json: { email: 'ada@example.com' } })).status).toBe(
    201,
  );
  const { submissions } = await ok<{ submissions: { id: string }[] }>(
    await api('GET', `/projects/${p.projectId}/submissions?limit=1`),
  );
  const submissionId = submissions[0]?.id ?? '';
  await consumeOutbox([submissionId]);
  return `${submissionId}.${target}`;
}

describe('C37: an address agrees before it receives', () => {
  it('C37: added with a secret key, it waits: one mail with a link, nothing delivered until its owner agrees', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    const mail = recording();
    const added = await add(mail.env, p.projectId, 'stranger@example.com', key);
    expect(added).toMatchObject({ state: 'waiting', verification: 'sent' });
    expect(mail.sent).toHaveLength(1);
    const [message] = mail.sent;
    expect(message).toMatchObject({
      from: 'forms@example.com',
      to: 'stranger@example.com',
      subject: 'Confirm that this address may receive form submissions',
    });
    const link = linkOf(message);
    expect(link?.[0]).toMatch(/^https:\/\/forms\.test\/verify\//);
    expect(await stateOf(p.projectId, added.notificationId)).toBe('waiting');
    // Nothing is written for it while it waits.
    expect(await deliveryRow(await deliveryOfNew(p, added.notificationId))).toBeUndefined();
    // Opening the link changes nothing (mail scanners open links): the page asks.
    const page = await fetchWorkerWith(env, new Request(`${BASE}/verify/${link?.[1]}`));
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('stranger@example.com');
    expect(html).toContain('<form method="post">');
    expect(await stateOf(p.projectId, added.notificationId)).toBe('waiting');
    // Pressing its button agrees, once.
    const agreed = await fetchWorkerWith(env, new Request(`${BASE}/verify/${link?.[1]}`, { method: 'POST' }));
    expect(agreed.status).toBe(200);
    expect(await agreed.text()).toContain('now receives the submissions');
    expect(await stateOf(p.projectId, added.notificationId)).toBe('active');
    expect(await deliveryRow(await deliveryOfNew(p, added.notificationId))).toMatchObject({
      status: 'pending',
    });
    const again = await fetchWorkerWith(env, new Request(`${BASE}/verify/${link?.[1]}`, { method: 'POST' }));
    expect(again.status).toBe(404);
    const { entries } = await ok<{ entries: { actor: string; action: string }[] }>(
      await api('GET', `/projects/${p.projectId}/audit`),
    );
    expect(entries.map((e) => `${e.actor} ${e.action}`)).toContain('recipient notification.verify');
  });

  it('C37: a session made from a secret key is the key: its address waits too', async () => {
    const p = await newProject();
    const headers = await signedIn(await secretKeyOf(p.projectId));
    const mail = recording();
    const res = await fetchWorkerWith(
      mail.env,
      request('POST', `/projects/${p.projectId}/notifications`, {
        token: null,
        headers,
        body: { address: 'x@example.com' },
      }),
    );
    expect(await ok<Added>(res, 201)).toMatchObject({ state: 'waiting', verification: 'sent' });
  });

  it('C37: the operator’s own addition is active at once, and sends no mail', async () => {
    const p = await newProject();
    const mail = recording();
    const res = await fetchWorkerWith(
      mail.env,
      request('POST', `/projects/${p.projectId}/notifications`, { body: { address: 'owner@example.com' } }),
    );
    const added = await ok<Added>(res, 201);
    expect(added.state).toBe('active');
    expect(added.verification).toBeUndefined();
    expect(mail.sent).toEqual([]);
  });

  it('C37: verification mails are capped: 2 a day to one mailbox (its spellings counted as one), across projects', async () => {
    const mail = recording();
    const box = `v${crypto.randomUUID().slice(0, 8)}`;
    const results: (string | undefined)[] = [];
    for (const address of [`${box}@gmail.com`, `${box}+x@gmail.com`, `${box.toUpperCase()}@googlemail.com`]) {
      const p = await newProject();
      results.push((await add(mail.env, p.projectId, address, await secretKeyOf(p.projectId))).verification);
    }
    expect(results).toEqual(['sent', 'sent', 'not sent: this address has had 2 verification mails today']);
    expect(mail.sent).toHaveLength(2);
  });

  it('C37, C41: the cap of 2 a day to one mailbox counts every place together, one after another or at once', async () => {
    const mail = recording();
    const inPlace = (place: string) => newProject(undefined, place === 'default' ? {} : { region: place });
    const box = `w${crypto.randomUUID().slice(0, 8)}`;
    const results: (string | undefined)[] = [];
    for (const place of ['default', 'eu', 'eu', 'default']) {
      const p = await inPlace(place);
      results.push(
        (await add(mail.env, p.projectId, `${box}@example.com`, await secretKeyOf(p.projectId))).verification,
      );
    }
    const capped = 'not sent: this address has had 2 verification mails today';
    expect(results).toEqual(['sent', 'sent', capped, capped]);
    expect(mail.sent).toHaveLength(2);
    // At once, from both places: still 2 at most.
    const other = `x${crypto.randomUUID().slice(0, 8)}@example.com`;
    const projects = await Promise.all(['default', 'eu', 'default', 'eu', 'default', 'eu'].map(inPlace));
    const keys = await Promise.all(projects.map((p) => secretKeyOf(p.projectId)));
    const before = mail.sent.length;
    await Promise.all(projects.map((p, i) => add(mail.env, p.projectId, other, keys[i] ?? '')));
    expect(mail.sent.length - before).toBeLessThanOrEqual(2);
  });

  it('C37: an expired link does nothing, says so, and the address shows as expired', async () => {
    const p = await newProject();
    const mail = recording();
    const added = await add(mail.env, p.projectId, 'late@example.com', await secretKeyOf(p.projectId));
    await env.DB.prepare('update targets set verify_until = ? where id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), added.notificationId)
      .run();
    const token = linkOf(mail.sent[0])?.[1];
    for (const method of ['GET', 'POST']) {
      const page = await fetchWorkerWith(env, new Request(`${BASE}/verify/${token}`, { method }));
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('This link does not work');
    }
    expect(await stateOf(p.projectId, added.notificationId)).toBe('expired');
    const unknown = await fetchWorkerWith(env, new Request(`${BASE}/verify/${'a'.repeat(43)}`));
    expect(unknown.status).toBe(404);
  });

  it('C37: the mail repeats nothing a key holder could make a link of', async () => {
    const p = await newProject(undefined, { name: 'Win at https://evil.example' });
    const key = await secretKeyOf(p.projectId);
    const mail = recording();
    await add(mail.env, p.projectId, 'z@example.com', key);
    const text = mail.sent[0]?.text ?? '';
    expect(text).not.toContain('evil.example');
  });
});

describe('C37: a project key sees its own project only, and a route acts on its own kind of target', () => {
  it('C37: a secret key reads its audit log with the operator’s identity shown as "operator"', async () => {
    const p = await newProject();
    const key = await secretKeyOf(p.projectId);
    await env.DB.prepare(
      "insert into audit_log (id, project_id, at, actor, action, detail) values (?, ?, ?, 'access:boss@example.com', 'field.define', null)",
    )
      .bind(crypto.randomUUID(), p.projectId, new Date().toISOString())
      .run();
    const asKey = await ok<{ entries: { actor: string }[] }>(
      await api('GET', `/projects/${p.projectId}/audit`, { token: key }),
    );
    expect(asKey.entries.map((e) => e.actor)).toContain('operator');
    expect(JSON.stringify(asKey)).not.toContain('boss@example.com');
    const asOperator = await ok<{ entries: { actor: string }[] }>(
      await api('GET', `/projects/${p.projectId}/audit`),
    );
    expect(asOperator.entries.map((e) => e.actor)).toContain('access:boss@example.com');
    const other = await newProject();
    await problem(await api('GET', `/projects/${other.projectId}/audit`, { token: key }), 404);
  });

  it('C37: PATCH /webhooks/:id toggles webhooks only: an email address or the confirmation is no webhook (404)', async () => {
    const p = await newProject([{ name: 'email', type: 'string', rules: { format: 'email' } }], {
      turnstileSecret: '0x4AAAAAAA-site-secret',
    });
    const { notificationId } = await ok<Added>(
      await api('POST', `/projects/${p.projectId}/notifications`, { body: { address: 'owner@example.com' } }),
      201,
    );
    await ok(
      await api('PATCH', `/projects/${p.projectId}`, {
        body: {
          confirmation: { field: 'email', subject: 'Thanks', body: 'Hello', replyTo: 'owner@example.com' },
        },
      }),
    );
    const confirmation = await env.DB.prepare(
      "select id from targets where project_id = ? and kind = 'confirmation'",
    )
      .bind(p.projectId)
      .first<{ id: string }>();
    for (const id of [notificationId, confirmation?.id ?? '']) {
      expect(
        await problem(
          await api('PATCH', `/projects/${p.projectId}/webhooks/${id}`, { body: { enabled: false } }),
          404,
        ),
      ).toMatch(/has no webhook/);
    }
    const rows = await env.DB.prepare('select disabled_at from targets where project_id = ?')
      .bind(p.projectId)
      .all();
    expect(rows.results.every((r) => r.disabled_at === null)).toBe(true);
  });
});
