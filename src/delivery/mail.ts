// C27: the notification email of an accepted submission, sent through the Workers `send_email`
// binding (C47: or the owner's provider): its fields as plain text, and Reply-To from the field the
// project names when that field holds a valid address. Recorded as an attempt like a webhook's (C26).
import * as v from 'valibot';
import { errorText } from '../lib/faults.ts';
import type { DeliveryToSend } from '../store/deliveries.ts';
import { addressOf } from '../store/targets.ts';
import type { AttemptResult, HttpContext } from './outbound.ts';

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

/**
 * One mail's attempt, as every delivery records it (C26): C47's provider answers with a status, and
 * its refusal of the key or of the message is `final`; its 429 carries its Retry-After.
 */
export type EmailAttempt = Omit<AttemptResult, 'disable'>;

/** C47: a provider other than Cloudflare's binding. */
export type ProviderName = 'resend' | 'postmark' | 'mailgun' | 'ses';

/** C47: the provider, its key (SES: the access key id, the secret access key, the region) and address. */
export type ProviderSetup = {
  name: ProviderName;
  key: string | undefined;
  secret: string | undefined;
  region: string | undefined;
  /** EMAIL_API_BASE: another address for its API (Mailgun's EU host, a stand-in). */
  apiBase: string | undefined;
  /** ALLOW_LOCAL_WEBHOOKS: plain http to a stand-in is allowed. */
  allowLocalHttp: boolean;
};

/** What sends the worker's mail: the binding, or (C47) the provider; and the sender, EMAIL_FROM. */
export type MailSetup = {
  binding: EmailSender | undefined;
  from: string | undefined;
  provider?: ProviderSetup | undefined;
};

const failed = (error: string): EmailAttempt => ({ ok: false, status: null, error, excerpt: null });

/** C47: the settings a provider needs that are not set, by name. */
export function lacking(p: Pick<ProviderSetup, 'name' | 'key' | 'secret' | 'region'>): string[] {
  const ses = p.name === 'ses';
  return [
    ...(p.key === undefined ? ['EMAIL_API_KEY'] : []),
    ...(ses && p.secret === undefined ? ['EMAIL_API_SECRET'] : []),
    ...(ses && p.region === undefined ? ['EMAIL_REGION'] : []),
  ];
}

/** C47: why the provider cannot be sent through, if it cannot. */
function providerProblem(p: ProviderSetup): string | undefined {
  const missing = lacking(p);
  if (missing.length > 0)
    return `email is not set up: EMAIL_PROVIDER is "${p.name}", and ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`;
  // C26: plain http (a stand-in on this machine) only where local development allows it.
  if (p.apiBase?.startsWith('http:') && !p.allowLocalHttp)
    return 'email is not set up: EMAIL_API_BASE is plain http, which only local development allows (ALLOW_LOCAL_WEBHOOKS)';
  return undefined;
}

/**
 * The sender address (EMAIL_FROM) and what sends a message: the binding, or (C47) the provider,
 * whose code is loaded here, by the first mail sent through it (never on a form post's path); or
 * why email is not set up.
 */
export function mailSender(
  setup: MailSetup,
  http: HttpContext = { fetch, now: new Date() },
): { from: string; send(message: NotificationEmail): Promise<EmailAttempt> } | string {
  const { binding, from, provider } = setup;
  let send: (message: NotificationEmail) => Promise<EmailAttempt>;
  if (provider !== undefined) {
    const problem = providerProblem(provider);
    if (problem !== undefined) return problem;
    send = async (message) => (await import('./providers/index.ts')).sendByProvider(provider, message, http);
  } else if (binding !== undefined) {
    send = (message) => sendThrough(binding, message);
  } else {
    return 'email is not set up: no send_email binding (EMAIL)';
  }
  if (!isEmailAddress(from)) return 'email is not set up: EMAIL_FROM is not an address';
  return { from, send };
}

/**
 * One message through the binding. Its refusal (an unverified destination, a sender not allowed, a
 * quota) is an error to record and retry, like a webhook's network error.
 */
async function sendThrough(binding: EmailSender, message: NotificationEmail): Promise<EmailAttempt> {
  try {
    const { messageId } = await binding.send(message);
    return { ok: true, status: null, error: null, excerpt: `sent ${messageId}`.slice(0, 200) };
  } catch (cause) {
    return failed(errorText(cause, 200));
  }
}

/** One mail made for the sender address, through the binding or the provider; or why email is not set up. */
export function sendMail(
  setup: MailSetup,
  make: (from: string) => NotificationEmail,
  http?: HttpContext,
): Promise<EmailAttempt> {
  const sender = mailSender(setup, http);
  if (typeof sender === 'string') return Promise.resolve(failed(sender));
  return sender.send(make(sender.from));
}

/** One attempt to send a notification (C27); email not set up is an error to record and retry. */
export function sendNotification(
  setup: MailSetup | undefined,
  d: Parameters<typeof notificationEmail>[0],
  http?: HttpContext,
): Promise<EmailAttempt> {
  return sendMail(
    setup ?? { binding: undefined, from: undefined },
    (sender) => notificationEmail(d, sender),
    http,
  );
}
