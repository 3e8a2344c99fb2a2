// C47: stand-ins for the mail providers' APIs, as test/standin.ts is for the integrations': a
// function from a Request to a Response, put in place of fetch by the workerd tests, that checks
// what each real API checks and answers as it answers. Resend: the Bearer key (401
// missing_api_key, 403 invalid_api_key), a User-Agent, JSON with from, to, subject and text or
// html, a verified sending domain (403 validation_error). Postmark: X-Postmark-Server-Token (401,
// ErrorCode 10), Accept and Content-Type JSON, a From that is a sender signature (422, 400), To,
// TextBody or HtmlBody (422, 300), an existing MessageStream (422, 1235). Mailgun: Basic `api:<key>`
// (401 Forbidden), the domain in the path (404), a form with from, to, subject and text (400).
// SES v2: AWS Signature Version 4, verified by signing the request again with the account's secret
// (aws4fetch's signer, the date and the headers the request signed) and comparing: an unknown key
// id (403 UnrecognizedClientException), another signature (403 SignatureDoesNotMatch), another
// region or service in the credential's scope, a date more than 5 minutes away (403); then a
// verified FromEmailAddress (400 MessageRejected) and the SendEmail body's shape (400).
import { env } from 'cloudflare:workers';
import { AwsV4Signer } from 'aws4fetch';

export type Provider = 'resend' | 'postmark' | 'mailgun' | 'ses';
type Json = Record<string, unknown>;

/** The domain every provider of the stand-in may send from. */
export const SENDING_DOMAIN = 'mail.example.net';
export const SENDER = `forms@${SENDING_DOMAIN}`;
/** SES's region, as its host names it. */
export const SES_REGION = 'eu-west-1';

/** What a provider took, whatever its API's spelling: the same message for every provider. */
export type Taken = {
  provider: Provider;
  from: string;
  to: string;
  subject: string;
  text: string;
  replyTo: string | undefined;
};
/** An answer a test makes a provider give instead (`network`: the connection fails). */
export type Forced = { status: number; headers?: Record<string, string>; body?: unknown } | 'network';

export type MailStandIn = {
  handle(request: Request): Promise<Response>;
  keys: { resend: string; postmark: string; mailgun: string; ses: string; sesSecret: string };
  taken: Taken[];
  /** Every request as sent: its provider, URL, headers and body; and its refusal, if refused. */
  requests: { provider: Provider | 'unknown'; url: string; headers: Json; body: string; refused?: string }[];
  force(provider: Provider, ...answers: Forced[]): void;
  /** A refusal that repeats what the request carried (the key, its headers): a careless provider. */
  echo: boolean;
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const providerOf = (path: string): Provider | 'unknown' =>
  path === '/emails'
    ? 'resend'
    : path === '/email'
      ? 'postmark'
      : /^\/v3\/[^/]+\/messages$/.test(path)
        ? 'mailgun'
        : path === '/v2/email/outbound-emails'
          ? 'ses'
          : 'unknown';

const domainOf = (address: unknown) =>
  typeof address === 'string' ? address.slice(address.lastIndexOf('@') + 1).toLowerCase() : '';

export function mailStandIn(): MailStandIn {
  const forced = new Map<Provider, Forced[]>();
  const s: MailStandIn = {
    keys: {
      resend: 're_StandIn_0123456789abcdefghijklmnop',
      postmark: '0f5a8d1e-7c2b-4e63-9a1d-standin00001',
      mailgun: 'standin-mailgun-key-0123456789abcdef-0001',
      ses: 'AKIASTANDIN000000001',
      sesSecret: 'standinSecretAccessKey/0123456789abcdefGHIJ',
    },
    taken: [],
    requests: [],
    echo: false,
    force(provider, ...answers) {
      forced.set(provider, [...(forced.get(provider) ?? []), ...answers]);
    },
    async handle(request) {
      const url = new URL(request.url);
      const provider = providerOf(url.pathname);
      const body = new TextDecoder().decode(await request.arrayBuffer());
      const headers = Object.fromEntries(request.headers);
      const entry: MailStandIn['requests'][number] = { provider, url: request.url, headers, body };
      s.requests.push(entry);
      // A refusal is JSON, or text (Mailgun's 401); a careless provider repeats the request in it.
      const refuse = (status: number, why: string, answer: unknown, extra: Record<string, string> = {}) => {
        entry.refused = why;
        if (typeof answer === 'string')
          return new Response(s.echo ? `${answer} ${JSON.stringify(headers)}` : answer, {
            status,
            headers: extra,
          });
        return json(status, s.echo ? { echo: { headers, body }, ...(answer as Json) } : answer, extra);
      };
      if (provider === 'unknown') return refuse(404, 'no such API', { message: 'Not Found' });
      if (request.method !== 'POST') return refuse(405, 'POST only', { message: 'Method Not Allowed' });
      const next = forced.get(provider)?.shift();
      if (next === 'network') throw new TypeError('Network connection lost.');
      if (next !== undefined) return json(next.status, next.body ?? { message: 'forced' }, next.headers);
      const take = (m: Omit<Taken, 'provider'>) => s.taken.push({ provider, ...m });
      if (provider === 'resend') return resend(request, body, refuse, take);
      if (provider === 'postmark') return postmark(request, body, refuse, take);
      if (provider === 'mailgun') return mailgun(request, url, body, refuse, take);
      return ses(request, url, body, refuse, take);
    },
  };

  type Refuse = (status: number, why: string, answer: unknown, extra?: Record<string, string>) => Response;
  type Take = (m: Omit<Taken, 'provider'>) => void;

  /** https://resend.com/docs/api-reference/emails/send-email, and its errors page. */
  function resend(request: Request, body: string, refuse: Refuse, take: Take) {
    const auth = request.headers.get('Authorization');
    const error = (status: number, name: string, message: string) =>
      refuse(status, name, { statusCode: status, name, message });
    if (request.headers.get('User-Agent') === null) return refuse(403, 'no User-Agent', 'error code: 1010');
    if (auth === null) return error(401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (auth !== `Bearer ${s.keys.resend}`) return error(403, 'invalid_api_key', 'API key is invalid');
    if (!request.headers.get('Content-Type')?.startsWith('application/json'))
      return error(422, 'validation_error', 'Invalid `content-type` header.');
    const m = JSON.parse(body) as Json;
    for (const name of ['from', 'to', 'subject'])
      if (m[name] === undefined) return error(422, 'missing_required_field', `Missing \`${name}\` field.`);
    if (typeof m.text !== 'string' && typeof m.html !== 'string')
      return error(422, 'validation_error', 'Either `text` or `html` must be given.');
    if (domainOf(m.from) !== SENDING_DOMAIN)
      return error(
        403,
        'validation_error',
        `The ${domainOf(m.from)} domain is not verified. Please, add and verify your domain on https://resend.com/domains`,
      );
    take({
      from: String(m.from),
      to: String(m.to),
      subject: String(m.subject),
      text: String(m.text),
      replyTo: m.reply_to as string | undefined,
    });
    return json(200, { id: crypto.randomUUID() });
  }

  /** https://postmarkapp.com/developer/user-guide/send-email-with-api, and its error codes. */
  function postmark(request: Request, body: string, refuse: Refuse, take: Take) {
    const token = request.headers.get('X-Postmark-Server-Token');
    const error = (status: number, code: number, message: string) =>
      refuse(status, String(code), { ErrorCode: code, Message: message });
    if (token === null)
      return error(
        401,
        10,
        'No Account or Server API tokens were supplied in the HTTP headers. Please add a header for either X-Postmark-Server-Token or X-Postmark-Account-Token.',
      );
    if (token !== s.keys.postmark)
      return error(
        401,
        10,
        'The Server API token you provided was invalid. Please check the token and try again.',
      );
    if (
      !request.headers.get('Accept')?.includes('application/json') ||
      !request.headers.get('Content-Type')?.startsWith('application/json')
    )
      return error(422, 409, 'JSON required.');
    const m = JSON.parse(body) as Json;
    if (domainOf(m.From) !== SENDING_DOMAIN)
      return error(
        422,
        400,
        `The 'From' address you supplied (${String(m.From)}) is not a Sender Signature on your account. Please add and confirm this address in order to be able to use it in the 'From' field of your messages.`,
      );
    if (typeof m.To !== 'string' || m.To === '') return error(422, 300, 'Zero recipients specified');
    if (typeof m.TextBody !== 'string' && typeof m.HtmlBody !== 'string')
      return error(422, 300, 'Provide either email TextBody or HtmlBody or both.');
    if ((m.MessageStream ?? 'outbound') !== 'outbound')
      return error(422, 1235, "The message stream for the provided 'ID' was not found.");
    take({
      from: String(m.From),
      to: m.To,
      subject: String(m.Subject),
      text: String(m.TextBody),
      replyTo: m.ReplyTo as string | undefined,
    });
    return json(200, {
      To: m.To,
      SubmittedAt: new Date().toISOString(),
      MessageID: crypto.randomUUID(),
      ErrorCode: 0,
      Message: 'OK',
    });
  }

  /** https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages */
  function mailgun(request: Request, url: URL, body: string, refuse: Refuse, take: Take) {
    if (request.headers.get('Authorization') !== `Basic ${btoa(`api:${s.keys.mailgun}`)}`)
      return refuse(401, 'Forbidden', 'Forbidden');
    const domain = decodeURIComponent(url.pathname.split('/')[2] ?? '');
    if (domain !== SENDING_DOMAIN) return refuse(404, 'domain', { message: `Domain not found: ${domain}` });
    if (!request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded'))
      return refuse(400, 'form', { message: 'from parameter is missing' });
    const form = new URLSearchParams(body);
    for (const name of ['from', 'to', 'subject'])
      if (!form.has(name)) return refuse(400, name, { message: `${name} parameter is missing` });
    if (!form.has('text') && !form.has('html'))
      return refuse(400, 'text', {
        message: "Need at least one of 'text', 'html', 'amp-html' or 'template' parameters specified",
      });
    take({
      from: form.get('from') ?? '',
      to: form.get('to') ?? '',
      subject: form.get('subject') ?? '',
      text: form.get('text') ?? '',
      replyTo: form.get('h:Reply-To') ?? undefined,
    });
    return json(200, { id: `<${Date.now()}.1.STANDIN@${domain}>`, message: 'Queued. Thank you.' });
  }

  /** https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html, signed by SigV4. */
  async function ses(request: Request, url: URL, body: string, refuse: Refuse, take: Take) {
    const error = (status: number, type: string, message: string) =>
      refuse(status, type, { message }, { 'x-amzn-ErrorType': type });
    const auth = request.headers.get('Authorization') ?? '';
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$/.exec(
        auth,
      );
    if (m === null) return error(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    const [, keyId, day, region, service, signedHeaders = ''] = m;
    if (keyId !== s.keys.ses)
      return error(
        403,
        'UnrecognizedClientException',
        'The security token included in the request is invalid.',
      );
    const hostRegion = /^email\.([a-z0-9-]+)\.amazonaws\.com$/.exec(url.hostname)?.[1] ?? SES_REGION;
    if (region !== hostRegion)
      return error(
        403,
        'SignatureDoesNotMatch',
        `Credential should be scoped to a valid region, not '${region}'.`,
      );
    if (service !== 'ses')
      return error(403, 'SignatureDoesNotMatch', "Credential should be scoped to correct service: 'ses'.");
    const datetime = request.headers.get('X-Amz-Date') ?? '';
    const signedAt = Date.parse(
      datetime.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    if (!datetime.startsWith(day ?? '') || !(Math.abs(signedAt - Date.now()) <= 5 * 60_000))
      return error(403, 'InvalidSignatureException', 'Signature expired');
    const names = signedHeaders.split(';');
    if (!names.includes('host') || !names.includes('x-amz-date'))
      return error(403, 'SignatureDoesNotMatch', 'host and x-amz-date must be signed');
    const again = await new AwsV4Signer({
      method: request.method,
      url: request.url,
      headers: names.filter((n) => n !== 'host').map((n) => [n, request.headers.get(n) ?? '']),
      body,
      accessKeyId: keyId,
      secretAccessKey: s.keys.sesSecret,
      region: hostRegion,
      service: 'ses',
      datetime,
    }).authHeader();
    if (again !== auth)
      return error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      );
    const e = JSON.parse(body) as {
      FromEmailAddress?: string;
      Destination?: { ToAddresses?: string[] };
      ReplyToAddresses?: string[];
      Content?: { Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string } } } };
    };
    const to = e.Destination?.ToAddresses ?? [];
    const simple = e.Content?.Simple;
    if (to.length === 0 || to.length > 50)
      return error(400, 'BadRequestException', 'Destination must have 1 to 50 addresses.');
    if (simple?.Subject?.Data === undefined || simple.Body?.Text?.Data === undefined)
      return error(400, 'BadRequestException', 'Content.Simple needs a Subject and a Body.');
    if (domainOf(e.FromEmailAddress) !== SENDING_DOMAIN)
      return error(
        400,
        'MessageRejected',
        `Email address is not verified. The following identities failed the check in region ${hostRegion.toUpperCase()}: ${e.FromEmailAddress}`,
      );
    take({
      from: e.FromEmailAddress ?? '',
      to: to[0] ?? '',
      subject: simple.Subject.Data,
      text: simple.Body.Text.Data,
      replyTo: e.ReplyToAddresses?.[0],
    });
    return json(200, { MessageId: `0100019${Date.now()}-standin-000000` });
  }

  return s;
}

/** The worker's environment with the provider chosen and its key (SES: its secret and region) set. */
export function withProvider(s: MailStandIn, provider: Provider, more: Record<string, unknown> = {}): Env {
  return {
    ...env,
    EMAIL_PROVIDER: provider,
    EMAIL_FROM: SENDER,
    EMAIL_API_KEY: s.keys[provider],
    ...(provider === 'ses' ? { EMAIL_API_SECRET: s.keys.sesSecret, EMAIL_REGION: SES_REGION } : {}),
    ...more,
  } as unknown as Env;
}
