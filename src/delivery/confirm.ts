// C35: the confirmation to the person who filled in the form: to the address in the project's
// chosen field, its subject and plain-text body made from the project's templates, `{{field}}`
// standing for the field's value. A public form must not become a way to mail strangers, so it is
// sent only for a submission that itself passed a Turnstile challenge (or from a project the
// operator opened), never for spam (spam has no deliveries), at most once a day to one mailbox from
// one project and a few hundred a day from one project; a value someone typed is plain text, cut
// short, with every link made unlinkable, and never in the subject.
import { sha256Text } from '../lib/hex.ts';
import { cutShort, defangLinks } from '../lib/links.ts';
import { mailboxOf } from '../lib/mailbox.ts';
import type { Db } from '../store/db.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import { count, scopes, take } from '../store/mail-counts.ts';
import {
  type EmailAttempt,
  headerText,
  isEmailAddress,
  type MailSetup,
  mailSender,
  type NotificationEmail,
  valueText,
} from './mail.ts';
import type { HttpContext } from './outbound.ts';

export type ConfirmationSettings = Pick<
  DeliveryToSend,
  | 'confirmField'
  | 'confirmSubject'
  | 'confirmBody'
  | 'confirmReplyTo'
  | 'confirmOpen'
  | 'challenge'
  | 'choices'
>;

const PLACEHOLDER = /\{\{\s*([^{}\s][^{}]*?)\s*\}\}/g;

/** The most of one value a confirmation's body repeats. */
export const MAX_ECHOED = 200;

/** The names of the fields a template's placeholders stand for. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

/** A value as the body shows it: a file by its name, a missing value as nothing. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string') {
    return (value as { name: string }).name;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A value the subject may hold: the owner's own words, not a stranger's. A number or yes/no, or
 * a string that is one of the field's choices (`oneOf`); any other value is left out.
 */
function subjectValue(name: string, value: unknown, choices: Record<string, unknown>): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const allowed = choices[name];
  return typeof value === 'string' && Array.isArray(allowed) && allowed.includes(value) ? value : '';
}

/** The fields' choices (`oneOf`) by name, from the delivery's JSON. */
function choicesOf(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  const parsed: unknown = JSON.parse(json);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/**
 * The template with each `{{field}}` replaced by the field's value. In the body (`header` false):
 * plain text, cut to MAX_ECHOED characters, links defanged, every later line indented (C27). In
 * the subject (`header`): only values the owner chose (subjectValue), on one line.
 */
export function fillTemplate(
  template: string,
  fields: Record<string, unknown>,
  header: boolean,
  choices: Record<string, unknown> = {},
): string {
  return template.replace(PLACEHOLDER, (_, name: string) => {
    const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (header) return headerText(subjectValue(name, value, choices), 200);
    return valueText(defangLinks(cutShort(shown(value), MAX_ECHOED)));
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
  if (d.challenge === null && !d.confirmOpen) {
    return 'not sent: this submission passed no Turnstile challenge, and only a submission that passed one is confirmed (C35)';
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
    subject: headerText(fillTemplate(d.confirmSubject ?? '', fields, true, choicesOf(d.choices)), 200),
    text: body.endsWith('\n') ? body : `${body}\n`,
    ...(isEmailAddress(d.confirmReplyTo) ? { replyTo: d.confirmReplyTo } : {}),
  };
}

/** `final`: the delivery can never succeed (a check, a cap; C47: the provider's refusal), failed now. */
export type ConfirmationAttempt = EmailAttempt;

/** The caps of C35: per mailbox and project, and per project, each a day. */
export type ConfirmationCaps = { perMailbox: number; perProject: number };

const refused = (error: string): ConfirmationAttempt => ({
  ok: false,
  status: null,
  error,
  excerpt: null,
  final: true,
});

/**
 * One attempt: the checks, the sender, the day's caps (the mailbox's first, so that one mailbox
 * asked for again and again never uses up the project's), then the binding (C47: or the provider).
 * A count taken stays taken if the send then fails: it errs against mailing. A cap reached is
 * counted for the owner.
 */
export async function sendConfirmation(
  db: Db,
  setup: MailSetup & { caps: ConfirmationCaps; now: Date; http?: HttpContext },
  d: ConfirmationSettings & Pick<DeliveryToSend, 'data' | 'projectId'>,
): Promise<ConfirmationAttempt> {
  const fields = JSON.parse(d.data) as Record<string, unknown>;
  const problem = confirmationProblem(d, fields);
  if (problem !== undefined) return refused(problem);
  const sender = mailSender(setup, setup.http);
  if (typeof sender === 'string') return { ok: false, status: null, error: sender, excerpt: null };
  const message = confirmationEmail(d, fields, sender.from);
  const day = setup.now.toISOString().slice(0, 10);
  const mailbox = await sha256Text(mailboxOf(message.to));
  const { perMailbox, perProject } = setup.caps;
  let capped: string | undefined;
  if (!(await take(db, scopes.mailbox(d.projectId, mailbox), day, perMailbox))) {
    capped = `not sent: this mailbox has had ${perMailbox} confirmation${perMailbox === 1 ? '' : 's'} from the project today (CONFIRMATIONS_PER_ADDRESS_PER_DAY)`;
  } else if (!(await take(db, scopes.project(d.projectId), day, perProject))) {
    capped = `not sent: the project has sent its ${perProject} confirmations today (CONFIRMATIONS_PER_PROJECT_PER_DAY)`;
  }
  if (capped !== undefined) {
    await count(db, scopes.capped(d.projectId), day);
    return refused(capped);
  }
  return sender.send(message);
}
