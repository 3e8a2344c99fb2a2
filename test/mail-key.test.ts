// C47: the provider's key is shown nowhere: not in a delivery's recorded error or excerpt, not in a
// log line, not in a reply of the API (the deliveries and their attempts, the addresses and who
// sends, an agreement mail's outcome), even when the provider's answer repeats it (a careless
// provider, test/mail-standin.ts's `echo`) or an excerpt is cut in the middle of it.
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { deliveryAttempts } from '../schema/tables.ts';
import { database } from '../src/store/db.ts';
import { deliveryId } from '../src/store/deliveries.ts';
import { insertTarget, mailto, newNotificationId } from '../src/store/targets.ts';
import { expectEnvelope, fetchWorkerWith, seedProject, storedRows, submit, VALID_BODY } from './helpers.ts';
import { type MailStandIn, mailStandIn, type Provider, SENDER, withProvider } from './mail-standin.ts';
import { request, secretKeyOf } from './manage/helpers.ts';
import { consume, deliveryRow } from './queue.ts';

const db = database(env.DB);
let s: MailStandIn;
let logs: MockInstance[];

beforeEach(() => {
  s = mailStandIn();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => s.handle(new Request(input, init)));
  logs = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(() => {}),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Every form a key could take in what is shown: itself, Mailgun's Basic credentials, their starts. */
function formsOf(...secrets: string[]): string[] {
  const all = secrets.flatMap((x) => [x, btoa(`api:${x}`)]);
  return [...all, ...all.map((x) => x.slice(0, 12))];
}

const logged = () =>
  logs.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(' '))).join('\n');

function expectNone(text: string, secrets: string[]) {
  for (const secret of formsOf(...secrets)) expect(text, secret).not.toContain(secret);
}

/** A project mailing owner@example.com, one submission, its notification attempted once. */
async function refusedNotification(environment: Env) {
  const p = await seedProject();
  const target = {
    id: newNotificationId(),
    projectId: p.projectId,
    kind: 'email' as const,
    url: mailto('owner@example.com'),
    secret: '',
  };
  await insertTarget(db, target);
  await expectEnvelope(await submit({ key: p.apiKey, json: VALID_BODY }), 201);
  const [row] = await storedRows(p.projectId);
  const id = deliveryId(row?.id ?? '', target.id);
  await consume(id, 1, environment);
  return { ...p, id };
}

describe.each<Provider>(['resend', 'postmark', 'mailgun', 'ses'])(
  'C47: %s’s key is shown nowhere',
  (provider) => {
    it('a refusal that repeats the request: not in the recorded attempt, the log, or the API’s replies', async () => {
      s.echo = true;
      // A key the provider does not know (revoked, say): its refusal repeats every header and the body.
      const revoked = 'revokedKey-0123456789-abcdefghijkl';
      const { projectId, id } = await refusedNotification(
        withProvider(s, provider, { EMAIL_API_KEY: revoked }),
      );
      const [attempt] = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
      expect(attempt?.error).toMatch(/^key refused: /);
      expect(s.requests.at(-1)?.refused).toBeDefined();
      const recorded = JSON.stringify({ attempt, delivery: await deliveryRow(id) });
      expect(recorded).toContain('[EMAIL_API_KEY]');
      expectNone(recorded, [revoked, s.keys.sesSecret]);

      const environment = withProvider(s, provider);
      const key = s.keys[provider];
      const replies: string[] = [];
      for (const path of [`/projects/${projectId}/deliveries`, `/projects/${projectId}/notifications`]) {
        replies.push(await (await fetchWorkerWith(environment, request('GET', path))).text());
      }
      expect(JSON.parse(replies[1] ?? '{}').data).toMatchObject({ mail: { provider, from: SENDER } });
      // The agreement mail of an address a key adds, refused with the key repeated: its outcome, replied.
      s.force(provider, { status: 401, body: { message: `bad key ${key}`, Message: `bad key ${key}` } });
      const added = await fetchWorkerWith(
        environment,
        request('POST', `/projects/${projectId}/notifications`, {
          token: await secretKeyOf(projectId),
          body: { address: `${provider}.owner@example.com` },
        }),
      );
      const text = await added.text();
      expect(JSON.parse(text).data).toMatchObject({
        verification: expect.stringMatching(/^not sent: key refused: .*bad key \[EMAIL_API_KEY\]$/),
      });
      replies.push(text);
      expectNone(replies.join('\n'), [revoked, key, s.keys.sesSecret]);
      expectNone(logged(), [revoked, key, s.keys.sesSecret]);
    });

    it('an answer cut in the middle of the key keeps no start of it', async () => {
      const key = s.keys[provider];
      // The key begins 10 characters before the excerpt's end (200), and 22 before the reason's.
      const message = `${'x'.repeat(178)}${key} is not a valid key`;
      s.force(provider, { status: 422, body: { message, Message: message } });
      const { id } = await refusedNotification(withProvider(s, provider));
      const [attempt] = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, id));
      expect(attempt?.excerpt).toMatch(/x…$/);
      expect(attempt?.error).toMatch(/^message refused: /);
      for (const text of [attempt?.excerpt ?? '', attempt?.error ?? ''])
        expect(text).not.toContain(key.slice(0, 4));
    });
  },
);
