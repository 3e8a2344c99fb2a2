// Every [vars] setting of wrangler.toml, its default and its bounds, in one schema; read once per
// environment object. A value out of bounds is one warning in the log, naming the setting and the
// documented fallback the worker uses instead: a typo in a setting never stops a form. C47: the
// mail provider's settings are declared the same way and parsed by the same function
// (parseConfig), in src/delivery/mail-settings.ts: only a mail sent reads them, so a form post's
// isolate never evaluates them.
import * as v from 'valibot';

/** C10: the largest MAX_BODY_BYTES honoured, so that every accepted body fits in one D1 row. */
export const MAX_BODY_BYTES_LIMIT = 1024 * 1024;
/** C17: the longest a project's configuration may be cached. */
export const MAX_CACHE_SECONDS = 30;
/** C26: the queue takes a delay of at most 12 hours. */
const MAX_RETRY_DELAY = 43_200;

/**
 * C26: seconds before each retry: the first within seconds, about a day in all (85,685 s ≈ 23.8 h);
 * after the last, the delivery has failed.
 */
export const RETRY_DELAYS = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800];
/**
 * C35: confirmations one mailbox may get from one project a day, and that one project may send a
 * day, unless CONFIRMATIONS_PER_ADDRESS_PER_DAY and CONFIRMATIONS_PER_PROJECT_PER_DAY say.
 */
export const CONFIRMATIONS_PER_DAY = 1;
export const CONFIRMATIONS_PER_PROJECT = 200;

/** A number, as [vars] gives it (a TOML number) or as `--var` and tests give it (text). */
const numeric = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.trim(), v.nonEmpty(), v.transform(Number))]),
  v.finite(),
);
const whole = (min: number, max: number) =>
  v.pipe(numeric, v.safeInteger(), v.minValue(min), v.maxValue(max));

/** One setting: what it must be, what is used when it is absent, and what instead of a bad value. */
export type Setting<T> = {
  schema: v.GenericSchema<unknown, T>;
  default: T;
  /** A value over the bound is held to it (C10, C17); anything else that fails is the default. */
  bound?: (raw: unknown) => T | undefined;
  expected: string;
};

export const setting = <T>(s: Setting<T>) => s;
/** An http(s) address, kept as its origin (no path). */
export const httpOrigin = v.pipe(
  v.string(),
  v.trim(),
  v.url(),
  v.check((url) => /^https?:\/\//.test(url)),
  v.transform((url) => new URL(url).origin),
);
const overMax = (max: number) => (raw: unknown) => {
  const n = v.safeParse(numeric, raw);
  return n.success && n.output > max ? max : undefined;
};

const SETTINGS = {
  // C10: the largest accepted request body, in bytes.
  MAX_BODY_BYTES: setting({
    schema: whole(1, MAX_BODY_BYTES_LIMIT),
    default: 64 * 1024,
    bound: overMax(MAX_BODY_BYTES_LIMIT),
    expected: `a whole number of bytes from 1 to ${MAX_BODY_BYTES_LIMIT}`,
  }),
  // C17: seconds a project's configuration is cached in each isolate; 0 turns the cache off.
  CONFIG_CACHE_SECONDS: setting({
    schema: v.pipe(numeric, v.minValue(0), v.maxValue(MAX_CACHE_SECONDS)),
    default: 10,
    bound: overMax(MAX_CACHE_SECONDS),
    expected: `a number of seconds from 0 to ${MAX_CACHE_SECONDS}`,
  }),
  // C26: plain http to localhost is sent to (local development only).
  ALLOW_LOCAL_WEBHOOKS: setting({
    schema: v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false'])]),
      v.transform((x) => x === true || x === 'true'),
    ),
    default: false,
    expected: '"true" or "false"',
  }),
  // C26: seconds before each retry, comma-separated.
  WEBHOOK_RETRY_DELAYS: setting({
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d+(?:\s*,\s*\d+){0,19}$/),
      v.transform((text) => text.split(',').map((d) => Number(d.trim()))),
      v.check((delays) => delays.every((d) => d <= MAX_RETRY_DELAY)),
    ),
    default: RETRY_DELAYS,
    expected: `1 to 20 whole numbers of seconds from 0 to ${MAX_RETRY_DELAY}, comma-separated`,
  }),
  // C30: the largest total of a submission's files, in bytes.
  MAX_UPLOAD_BYTES: setting({
    schema: whole(1, Number.MAX_SAFE_INTEGER),
    default: 10_000_000,
    expected: 'a whole number of bytes, at least 1',
  }),
  // C27: the sender of notification emails; without a valid one, emails fail visibly.
  EMAIL_FROM: setting<string | undefined>({
    schema: v.pipe(v.string(), v.trim(), v.maxLength(254), v.email()),
    default: undefined,
    expected: 'an email address on a domain that Cloudflare Email Routing or Email Service sends from',
  }),
  // C18: how long a D1 write may take before its outcome is unknown (its requests get 503).
  LOST_WRITE_SECONDS: setting({
    schema: whole(1, 120),
    default: 30,
    expected: 'a whole number of seconds from 1 to 120',
  }),
  // C40: milliseconds an isolate gathers form analytics' events before one D1 batch writes them.
  ANALYTICS_FLUSH_MS: setting({
    schema: whole(0, 10_000),
    default: 2000,
    expected: 'a whole number of milliseconds from 0 to 10000',
  }),
  // C35: confirmations one mailbox gets from one project per day (UTC).
  CONFIRMATIONS_PER_ADDRESS_PER_DAY: setting({
    schema: whole(1, 10),
    default: CONFIRMATIONS_PER_DAY,
    bound: overMax(10),
    expected: 'a whole number from 1 to 10',
  }),
  // C35: confirmations one project sends per day (UTC), whoever they go to.
  CONFIRMATIONS_PER_PROJECT_PER_DAY: setting({
    schema: whole(0, 100_000),
    default: CONFIRMATIONS_PER_PROJECT,
    bound: overMax(100_000),
    expected: 'a whole number from 0 to 100000',
  }),
  // C36: the worker's own address (`https://forms.example.com`), for a chat message's link to the
  // submission in the dashboard; unset, messages carry no link.
  PUBLIC_URL: setting<string | undefined>({
    schema: httpOrigin,
    default: undefined,
    expected: "the worker's address, https://… (no path)",
  }),
  // C44: "false" turns every project's hosted page off in this deployment, whatever its owner set.
  // Any other value than "true" or "false" turns them off too (with the warning): a switch that
  // exists to turn pages off fails closed ("off", "no", "0" mean what they say).
  HOSTED_PAGES: setting({
    schema: v.pipe(
      v.union([v.boolean(), v.picklist(['true', 'false'])]),
      v.transform((x) => x === true || x === 'true'),
    ),
    default: true,
    bound: () => false,
    expected: '"true" or "false"',
  }),
  // C38: for local development and tests only: replaces the scheme and host of every integration's
  // API (Google, Notion, Airtable, Telegram) with a local stand-in's, each keeping its real path.
  // Honoured only with ALLOW_LOCAL_WEBHOOKS; empty, each talks to its own service.
  INTEGRATIONS_API_BASE: setting<string | undefined>({
    schema: httpOrigin,
    default: undefined,
    expected: "a stand-in's address, http://127.0.0.1:… (no path)",
  }),
};

/** The values of a table of settings, each as its schema gives it. */
export type Parsed<S extends Record<string, Setting<unknown>>> = {
  readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never;
};
export type Config = Parsed<typeof SETTINGS>;

/**
 * Each setting's value from `raw`, and a warning per value out of bounds; of `table`, when given
 * (C47: the mail provider's, src/delivery/mail-settings.ts).
 */
export function parseConfig<S extends Record<string, Setting<unknown>> = typeof SETTINGS>(
  raw: Record<string, unknown>,
  warn: (line: string) => void = (line) => console.warn(line),
  table: S = SETTINGS as unknown as S,
): Parsed<S> {
  const config: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(table)) {
    const given = raw[name];
    if (given === undefined || given === '') {
      config[name] = s.default;
      continue;
    }
    const parsed = v.safeParse(s.schema, given);
    if (parsed.success) {
      config[name] = parsed.output;
      continue;
    }
    const fallback = s.bound?.(given) ?? s.default;
    config[name] = fallback;
    // The value itself is not logged: settings are operators' text, and may hold a pasted secret.
    warn(
      JSON.stringify({
        level: 'warn',
        event: 'setting-out-of-bounds',
        setting: name,
        expected: s.expected,
        using: fallback ?? null,
      }),
    );
  }
  return config as Parsed<S>;
}

const configs = new WeakMap<object, Config>();

/** The settings of this environment (the worker's `env`), parsed the first time they are asked for. */
export function config(env: object): Config {
  let parsed = configs.get(env);
  if (parsed === undefined) {
    parsed = parseConfig(env as unknown as Record<string, unknown>);
    configs.set(env, parsed);
  }
  return parsed;
}
