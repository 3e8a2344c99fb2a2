// C47: who sends the worker's mail (EMAIL_PROVIDER, with its key, its region and its address), as
// the settings of src/config.ts are declared and parsed (parseConfig), in a module of its own: only
// a mail sent (the queue consumer, the management API) reads them, so a form post's isolate never
// evaluates them. Each missing piece a provider needs is one warning line naming it, never a value.
import * as v from 'valibot';
import { config, httpOrigin, parseConfig, setting } from '../config.ts';
import { type EmailSender, lacking, type MailSetup, type ProviderName } from './mail.ts';

/** C47: every provider, `cloudflare` (the `send_email` binding) first: the default. */
export const PROVIDERS = ['cloudflare', 'resend', 'postmark', 'mailgun', 'ses'] as const;
type Provider = (typeof PROVIDERS)[number];

/** A secret as `wrangler secret put` stores it: text, trimmed, not absurdly long. */
const secretText = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(4096));

const MAIL_SETTINGS = {
  EMAIL_PROVIDER: setting<Provider>({
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.transform((name) => name.toLowerCase()),
      v.picklist(PROVIDERS),
    ),
    default: 'cloudflare',
    expected: '"cloudflare", "resend", "postmark", "mailgun" or "ses"',
  }),
  // Another address for the provider's API, its origin only (a path is not kept): Mailgun's EU
  // host, a local stand-in.
  EMAIL_API_BASE: setting<string | undefined>({
    schema: httpOrigin,
    default: undefined,
    expected: "the provider's API address, https://… (no path), such as https://api.eu.mailgun.net",
  }),
  // SES: the region of the account's verified identities.
  EMAIL_REGION: setting<string | undefined>({
    schema: v.pipe(v.string(), v.trim(), v.regex(/^[a-z]{2}(?:-[a-z]+)+-\d$/)),
    default: undefined,
    expected: 'an AWS region, such as eu-west-1',
  }),
  // Secrets (`npx wrangler secret put EMAIL_API_KEY`): the provider's key (SES: the access key id)…
  EMAIL_API_KEY: setting<string | undefined>({
    schema: secretText,
    default: undefined,
    expected: "the provider's API key, a secret: npx wrangler secret put EMAIL_API_KEY",
  }),
  // …and SES's secret access key.
  EMAIL_API_SECRET: setting<string | undefined>({
    schema: secretText,
    default: undefined,
    expected: "SES's secret access key, a secret: npx wrangler secret put EMAIL_API_SECRET",
  }),
};

export type MailSettings = ReturnType<typeof parseMailSettings>;

/** The mail settings of `raw`: a warning per value out of bounds, and one per piece the provider lacks. */
export function parseMailSettings(
  raw: Record<string, unknown>,
  warn: (line: string) => void = (line) => console.warn(line),
) {
  const s = parseConfig(raw, warn, MAIL_SETTINGS);
  const name = s.EMAIL_PROVIDER;
  const missing =
    name === 'cloudflare'
      ? []
      : lacking({ name, key: s.EMAIL_API_KEY, secret: s.EMAIL_API_SECRET, region: s.EMAIL_REGION });
  for (const setting of missing) {
    warn(
      JSON.stringify({
        level: 'warn',
        event: 'setting-missing',
        setting,
        expected: `set for EMAIL_PROVIDER "${name}": its mail is not sent without it (docs/delivery.md)`,
        using: null,
      }),
    );
  }
  return s;
}

const parsed = new WeakMap<object, MailSettings>();

/** The mail settings of this environment, parsed the first time they are asked for. */
export function mailSettings(env: object): MailSettings {
  let s = parsed.get(env);
  if (s === undefined) {
    s = parseMailSettings(env as unknown as Record<string, unknown>);
    parsed.set(env, s);
  }
  return s;
}

/** What the worker's mail is sent with: the `send_email` binding, or the provider and its key. */
export function mailSetup(env: { EMAIL?: EmailSender | undefined }): MailSetup {
  const s = mailSettings(env);
  const { EMAIL_FROM, ALLOW_LOCAL_WEBHOOKS } = config(env);
  const name: Provider = s.EMAIL_PROVIDER;
  return {
    binding: env.EMAIL,
    from: EMAIL_FROM,
    ...(name === 'cloudflare'
      ? {}
      : {
          provider: {
            name: name satisfies ProviderName,
            key: s.EMAIL_API_KEY,
            secret: s.EMAIL_API_SECRET,
            region: s.EMAIL_REGION,
            apiBase: s.EMAIL_API_BASE,
            allowLocalHttp: ALLOW_LOCAL_WEBHOOKS,
          },
        }),
  };
}

/** C47: who sends, as the dashboard and the API show it: the provider's name and the sender, never a key. */
export function mailShown(env: object): { provider: Provider; from: string | null } {
  return { provider: mailSettings(env).EMAIL_PROVIDER, from: config(env).EMAIL_FROM ?? null };
}
