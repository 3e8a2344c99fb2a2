// C47: each provider's request for one message, as its documentation describes it: the URL (its
// scheme and host replaced by EMAIL_API_BASE when set, its path kept), the headers that carry the
// key (never the URL), the body; and where its answer names the message it took.
import { AwsV4Signer } from 'aws4fetch';
import type { NotificationEmail, ProviderName, ProviderSetup } from '../mail.ts';
import { apiUrl } from '../outbound.ts';

export type ProviderRequest = { url: string; headers: Record<string, string>; body: string };

type Api = {
  /** Its name, as the log says it. */
  label: string;
  request(message: NotificationEmail, p: ProviderSetup & { key: string }): Promise<ProviderRequest>;
  /** The id its answer gives the message it took. */
  sentId(json: Record<string, unknown>): unknown;
  /** A 401 or 403 that refuses the message, not the key (Resend's unverified domain). */
  refusesMessage?(status: number, json: Record<string, unknown>): boolean;
};

/** The JSON of a request: a member whose value is undefined (no Reply-To) is left out. */
const json = (body: Record<string, unknown>) => JSON.stringify(body);

export const APIS: Record<ProviderName, Api> = {
  // https://resend.com/docs/api-reference/emails/send-email
  resend: {
    label: 'Resend',
    request: async (m, p) => ({
      url: apiUrl('https://api.resend.com/emails', p.apiBase),
      headers: { Authorization: `Bearer ${p.key}` },
      body: json({ from: m.from, to: m.to, subject: m.subject, text: m.text, reply_to: m.replyTo }),
    }),
    sentId: (answer) => answer.id,
    // Its 403 `validation_error` refuses a sender whose domain is not verified, or a test key's
    // mail to anyone but its owner; a key it does not know is `invalid_api_key` (or says "API key").
    refusesMessage: (status, answer) =>
      status === 403 && answer.name === 'validation_error' && !/api key/i.test(String(answer.message)),
  },
  // https://postmarkapp.com/developer/user-guide/send-email-with-api
  postmark: {
    label: 'Postmark',
    request: async (m, p) => ({
      url: apiUrl('https://api.postmarkapp.com/email', p.apiBase),
      headers: { Accept: 'application/json', 'X-Postmark-Server-Token': p.key },
      body: json({
        From: m.from,
        To: m.to,
        Subject: m.subject,
        TextBody: m.text,
        ReplyTo: m.replyTo,
        MessageStream: 'outbound',
      }),
    }),
    sentId: (answer) => answer.MessageID,
  },
  // https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages: the sending
  // domain is EMAIL_FROM's; an EU domain's API is https://api.eu.mailgun.net (EMAIL_API_BASE).
  mailgun: {
    label: 'Mailgun',
    request: async (m, p) => {
      const domain = m.from.slice(m.from.lastIndexOf('@') + 1).toLowerCase();
      const form = new URLSearchParams({ from: m.from, to: m.to, subject: m.subject, text: m.text });
      if (m.replyTo !== undefined) form.set('h:Reply-To', m.replyTo);
      return {
        url: apiUrl(`https://api.mailgun.net/v3/${encodeURIComponent(domain)}/messages`, p.apiBase),
        headers: {
          Authorization: `Basic ${btoa(`api:${p.key}`)}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
      };
    },
    sentId: (answer) => answer.id,
  },
  // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html, signed with AWS
  // Signature Version 4 by aws4fetch (its signer only: the request goes through the delivery's
  // one HTTP client, never aws4fetch's own fetch, which would retry by itself).
  ses: {
    label: 'Amazon SES',
    request: async (m, p) => {
      const url = apiUrl(`https://email.${p.region}.amazonaws.com/v2/email/outbound-emails`, p.apiBase);
      const body = json({
        FromEmailAddress: m.from,
        Destination: { ToAddresses: [m.to] },
        ReplyToAddresses: m.replyTo === undefined ? undefined : [m.replyTo],
        Content: {
          Simple: {
            Subject: { Data: m.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: m.text, Charset: 'UTF-8' } },
          },
        },
      });
      const signed = await new AwsV4Signer({
        method: 'POST',
        url,
        body,
        accessKeyId: p.key,
        secretAccessKey: p.secret ?? '',
        region: p.region ?? '',
        service: 'ses',
      }).sign();
      return { url, headers: Object.fromEntries(signed.headers), body };
    },
    sentId: (answer) => answer.MessageId,
  },
};
