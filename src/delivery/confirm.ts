// C35: the confirmation to the person who filled in the form: to the address in the project's
// chosen field, its subject and plain-text body made from the project's templates, `{{field}}`
// standing for the field's value (as text: nothing in a value can add a header or pass for another
// line of the template's). Sent through the same outbox as notifications, never for spam (spam has
// no deliveries), never to an address that fails the email format, at most a few a day to any
// one address, and not from a form that anyone can post to without Turnstile or allowed origins
// unless the operator allowed it.
import { sha256Text } from '../lib/hex.ts';
import { takeConfirmation } from '../store/confirmations.ts';
import type { Db } from '../store/db.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import {
  type EmailAttempt,
  type EmailSender,
  emailSender,
  headerText,
  isEmailAddress,
  type NotificationEmail,
  sendThrough,
  valueText,
} from './email.ts';

export type ConfirmationSettings = Pick<
  DeliveryToSend,
  'confirmField' | 'confirmSubject' | 'confirmBody' | 'confirmReplyTo' | 'confirmOpen' | 'protectedForm'
>;

const PLACEHOLDER = /\{\{\s*([^{}\s][^{}]*?)\s*\}\}/g;

/** A value as the template shows it: a file by its name, a missing value as nothing. */
function shown(value: unknown): unknown {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') {
    return (value as { name: string }).name;
  }
  return value;
}

/** The template with each `{{field}}` replaced by the field's value; `header`: on one line. */
export function fillTemplate(template: string, fields: Record<string, unknown>, header: boolean): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = shown(Object.hasOwn(fields, name) ? fields[name] : undefined);
    return header
      ? headerText(typeof value === 'string' ? value : JSON.stringify(value), 200)
      : valueText(value);
  });
}

/** What stops a confirmation from ever being sent: this attempt ends the delivery, failed. */
export function confirmationProblem(
  d: ConfirmationSettings,
  fields: Record<string, unknown>,
): string | undefined {
  if (d.confirmField === null || d.confirmSubject === null || d.confirmBody === null) {
    return 'not sent: the project sends no confirmation';
  }
  if (!d.protectedForm && !d.confirmOpen) {
    return 'not sent: the project has neither Turnstile nor allowed origins, and the operator has not allowed confirmations from an open form (C35)';
  }
  if (!isEmailAddress(fields[d.confirmField])) {
    return `not sent: field '${d.confirmField}' holds no valid address`;
  }
  return undefined;
}

/** The email to the submitter, from the submission's fields. */
export function confirmationEmail(
  d: ConfirmationSettings,
  fields: Record<string, unknown>,
  from: string,
): NotificationEmail {
  const body = fillTemplate(d.confirmBody ?? '', fields, false);
  return {
    from,
    to: String(fields[d.confirmField ?? '']),
    subject: headerText(fillTemplate(d.confirmSubject ?? '', fields, true), 200),
    text: body.endsWith('\n') ? body : `${body}\n`,
    ...(isEmailAddress(d.confirmReplyTo) ? { replyTo: d.confirmReplyTo } : {}),
  };
}

export type ConfirmationAttempt = EmailAttempt & {
  /** The delivery can never succeed: failed now, not retried. */
  final?: boolean;
};

/** One attempt: the checks, the sender, the day's cap, then the binding. */
export async function sendConfirmation(
  db: Db,
  setup: { binding: EmailSender | undefined; from: string | undefined; cap: number; now: Date },
  d: ConfirmationSettings & Pick<DeliveryToSend, 'data'>,
): Promise<ConfirmationAttempt> {
  const fields = JSON.parse(d.data) as Record<string, unknown>;
  const problem = confirmationProblem(d, fields);
  if (problem !== undefined) return { ok: false, status: null, error: problem, excerpt: null, final: true };
  const sender = emailSender(setup.binding, setup.from);
  if (typeof sender === 'string') return { ok: false, status: null, error: sender, excerpt: null };
  const message = confirmationEmail(d, fields, sender.from);
  const day = setup.now.toISOString().slice(0, 10);
  if (!(await takeConfirmation(db, await sha256Text(message.to.toLowerCase()), day, setup.cap))) {
    return {
      ok: false,
      status: null,
      error: `not sent: this address has had ${setup.cap} confirmations today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)`,
      excerpt: null,
      final: true,
    };
  }
  return sendThrough(sender.binding, message);
}
