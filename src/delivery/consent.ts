// C37: nothing is sent to an address whose owner has not agreed. A notification address that
// anyone but the operator adds gets one mail with a link, and nothing else until the link is
// followed; the mails are capped per mailbox and per project, so that asking is no way to mail
// strangers either. The mail repeats nothing a stranger could make a link of.
import { VERIFY_PATH } from '../http/paths.ts';
import { sha256Text } from '../lib/hex.ts';
import { defangLinks } from '../lib/links.ts';
import { mailboxOf } from '../lib/mailbox.ts';
import type { Db } from '../store/db.ts';
import { scopes, take, takeAcross } from '../store/mail-counts.ts';
import { type EmailAttempt, headerText, type NotificationEmail } from './mail.ts';

/** How long a verification link works. */
export const VERIFY_HOURS = 72;
/** Verification mails one mailbox gets a day, from every project together. */
export const VERIFY_MAILS_PER_ADDRESS = 2;
/** Verification mails one project sends a day. */
export const VERIFY_MAILS_PER_PROJECT = 20;

/** What sends the worker's own mail, and its address, for links. */
export type Mailer = {
  send(make: (from: string) => NotificationEmail): Promise<EmailAttempt>;
  baseUrl: string;
};

/** The verification mail: who asks, what for, the link, and how to refuse (do nothing). */
export function verificationEmail(
  project: { name: string },
  address: string,
  link: string,
  until: string,
  from: string,
): NotificationEmail {
  const name = defangLinks(headerText(project.name, 100));
  return {
    from,
    to: address,
    subject: 'Confirm that this address may receive form submissions',
    text: [
      `Someone managing the form "${name}" asked to send a copy of every submission of that form to ${defangLinks(address)}.`,
      '',
      'Nothing is sent to this address unless you agree. To agree, open this link and press the button on the page:',
      '',
      link,
      '',
      `The link works until ${until.slice(0, 16).replace('T', ' ')} UTC. If you did not expect this mail, ignore it: nothing more will be sent.`,
      '',
    ].join('\n'),
  };
}

/**
 * Sends the verification mail of a new address, within the day's caps: 'sent', or why it was not
 * (a cap, or email not set up). The address stays waiting either way.
 */
export async function sendVerification(
  db: Db,
  /** C41: the other places' databases: a mailbox's cap counts every place's mails. */
  elsewhere: readonly Db[],
  mailer: Mailer,
  project: { id: string; name: string },
  address: string,
  token: string,
  until: string,
): Promise<string> {
  const day = new Date().toISOString().slice(0, 10);
  const mailbox = await sha256Text(mailboxOf(address));
  if (!(await takeAcross(db, elsewhere, scopes.verify(mailbox), day, VERIFY_MAILS_PER_ADDRESS))) {
    return `not sent: this address has had ${VERIFY_MAILS_PER_ADDRESS} verification mails today`;
  }
  if (!(await take(db, scopes.verifyProject(project.id), day, VERIFY_MAILS_PER_PROJECT))) {
    return `not sent: the project has sent ${VERIFY_MAILS_PER_PROJECT} verification mails today`;
  }
  const link = `${mailer.baseUrl}${VERIFY_PATH}/${token}`;
  const attempt = await mailer.send((from) => verificationEmail(project, address, link, until, from));
  return attempt.ok ? 'sent' : `not sent: ${attempt.error ?? 'the mail was refused'}`;
}
