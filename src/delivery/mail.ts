// C27: the notification email of an accepted submission, sent through the Workers `send_email`
// binding: its fields as plain text, and Reply-To from the field the project names when that
// field holds a valid address. Recorded as an attempt like a webhook's (C26).
import * as v from 'valibot';
import { errorText } from '../lib/faults.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import { addressOf } from '../store/targets.ts';

/** A single plain address, as valibot's email check judges it; nothing a header could be split by. */
const ADDRESS = v.pipe(v.string(), v.maxLength(254), v.email());
export const isEmailAddress = (value: unknown): value is string => v.is(ADDRESS, value);

/** No line breaks or other control characters in a header, so that nothing can add one. */
export const headerText = (text: string, max: number) =>
  text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim()
    .slice(0, max);

/**
 * Every Unicode line terminator (CR LF, CR, LF, VT, FF, NEL, LINE and PARAGRAPH SEPARATOR): a mail
 * client may break a line on any of them.
 */
export const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * A field's value as text: strings as they are, every later line indented, so that no line of a
 * value can pass for another field (C27); anything else as JSON.
 */
export function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(LINE_BREAK, '\n  ');
}

export type NotificationEmail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
};

/** The email of one delivery: to its target's address, from `from` (the EMAIL_FROM setting). */
export function notificationEmail(
  d: Pick<
    DeliveryToSend,
    'url' | 'projectId' | 'projectName' | 'submissionId' | 'receivedAt' | 'data' | 'replyToField'
  >,
  from: string,
): NotificationEmail {
  const fields = JSON.parse(d.data) as Record<string, unknown>;
  const names = Object.keys(fields);
  const lines = [
    `A form of ${headerText(d.projectName, 200)} (${d.projectId}) was submitted.`,
    '',
    ...(names.length === 0 ? ['(no fields)'] : names.map((name) => `${name}: ${valueText(fields[name])}`)),
    '',
    `Submission ${d.submissionId}, received ${d.receivedAt}.`,
    `Read it with a secret key: GET /api/v1/submissions/${d.submissionId}`,
  ];
  const replyTo = d.replyToField === null ? undefined : fields[d.replyToField];
  return {
    from,
    to: addressOf(d.url),
    subject: headerText(`New submission: ${d.projectName}`, 200),
    text: `${lines.join('\n')}\n`,
    ...(isEmailAddress(replyTo) ? { replyTo } : {}),
  };
}

/** The part of the `send_email` binding used here (the binding's `SendEmail` type is workerd's). */
export type EmailSender = { send(message: NotificationEmail): Promise<{ messageId: string }> };

export type EmailAttempt = { ok: boolean; status: null; error: string | null; excerpt: string | null };

const failed = (error: string): EmailAttempt => ({ ok: false, status: null, error, excerpt: null });

/** The binding and a good sender address (EMAIL_FROM), or why email is not set up. */
export function emailSender(
  binding: EmailSender | undefined,
  from: string | undefined,
): { binding: EmailSender; from: string } | string {
  if (binding === undefined) return 'email is not set up: no send_email binding (EMAIL)';
  if (!isEmailAddress(from)) return 'email is not set up: EMAIL_FROM is not an address';
  return { binding, from };
}

/**
 * One message through the binding. Its refusal (an unverified destination, a sender not allowed, a
 * quota) is an error to record and retry, like a webhook's network error.
 */
export async function sendThrough(binding: EmailSender, message: NotificationEmail): Promise<EmailAttempt> {
  try {
    const { messageId } = await binding.send(message);
    return { ok: true, status: null, error: null, excerpt: `sent ${messageId}`.slice(0, 200) };
  } catch (cause) {
    return failed(errorText(cause, 200));
  }
}

/** One mail made for the sender address, through the binding; or why email is not set up. */
export function sendMail(
  binding: EmailSender | undefined,
  from: string | undefined,
  make: (from: string) => NotificationEmail,
): Promise<EmailAttempt> {
  const sender = emailSender(binding, from);
  if (typeof sender === 'string') return Promise.resolve(failed(sender));
  return sendThrough(sender.binding, make(sender.from));
}

/** One attempt to send a notification (C27); email not set up is an error to record and retry. */
export function sendNotification(
  binding: EmailSender | undefined,
  from: string | undefined,
  d: Parameters<typeof notificationEmail>[0],
): Promise<EmailAttempt> {
  return sendMail(binding, from, (sender) => notificationEmail(d, sender));
}
