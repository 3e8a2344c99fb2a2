// C35, C37: the day's caps on mail a stranger's input can cause, each rule once a surviving
// mutation (docs/testing.md): a confirmation refused by one mailbox's cap never spends the
// project's; a project sends at most its daily number of verification (agreement) mails.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sendConfirmation } from '../src/delivery/confirm.ts';
import { VERIFY_MAILS_PER_PROJECT } from '../src/delivery/consent.ts';
import { database } from '../src/store/db.ts';
import { fetchWorkerWith } from './helpers.ts';
import { recording } from './mail.ts';
import { newProject, ok, request, secretKeyOf } from './manage/helpers.ts';

const settings = {
  confirmField: 'email',
  confirmSubject: 'Thank you',
  confirmBody: 'We have your message.',
  confirmReplyTo: null,
  confirmOpen: false,
  challenge: 'turnstile',
  choices: null,
};

describe('C35: the caps of confirmations', () => {
  it('confirmations refused by one mailbox’s cap do not use up the project’s daily cap', async () => {
    const mail = recording();
    const projectId = `caps${crypto.randomUUID().slice(0, 8)}`;
    const setup = {
      binding: mail.env.EMAIL,
      from: 'forms@example.com',
      caps: { perMailbox: 1, perProject: 2 },
      now: new Date(),
    };
    const confirm = (email: string) =>
      sendConfirmation(database(env.DB), setup, { ...settings, projectId, data: JSON.stringify({ email }) });
    const answers = [];
    for (const email of [
      'same@example.com',
      'same@example.com',
      'same@example.com',
      'b@example.com',
      'c@example.com',
    ])
      answers.push((await confirm(email)).error);
    expect(mail.sent.map((m) => m.to)).toEqual(['same@example.com', 'b@example.com']);
    expect(answers.slice(1, 3)).toEqual([
      'not sent: this mailbox has had 1 confirmation from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)',
      'not sent: this mailbox has had 1 confirmation from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)',
    ]);
    expect(answers[4]).toBe(
      'not sent: the project has sent its 2 confirmations today (CONFIRMATIONS_PER_PROJECT_PER_DAY)',
    );
  });
});

describe('C37: the caps of verification mails', () => {
  it(`a project sends at most ${VERIFY_MAILS_PER_PROJECT} a day, whoever they go to`, async () => {
    const mail = recording();
    const { projectId } = await newProject();
    const key = await secretKeyOf(projectId);
    const results: string[] = [];
    for (let i = 0; i <= VERIFY_MAILS_PER_PROJECT; i++) {
      const res = await fetchWorkerWith(
        mail.env,
        request('POST', `/projects/${projectId}/notifications`, {
          token: key,
          body: { address: `n${i}-${projectId}@example.com` },
        }),
      );
      const added = await ok<{ verification: string; notificationId: string }>(res, 201);
      results.push(added.verification);
      // Removed again: a project keeps at most 10 addresses, but may ask for many in a day.
      await ok(
        await fetchWorkerWith(
          mail.env,
          request('DELETE', `/projects/${projectId}/notifications/${added.notificationId}`, { token: key }),
        ),
      );
    }
    expect(mail.sent).toHaveLength(VERIFY_MAILS_PER_PROJECT);
    expect(results.filter((r) => r === 'sent')).toHaveLength(VERIFY_MAILS_PER_PROJECT);
    expect(results.at(-1)).toBe(
      `not sent: the project has sent ${VERIFY_MAILS_PER_PROJECT} verification mails today`,
    );
  });
});
