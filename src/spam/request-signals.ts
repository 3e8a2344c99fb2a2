// C39: what the isolate records of a submission's request (src/accept/signals.ts), for the judge
// (signals.ts): kept apart, so that a form post evaluates only this much of the spam filter.

/** What the widget's token said: none sent, sent and signed by us, forged, or too old. */
export const TOKEN_STATES = ['valid', 'missing', 'forged', 'expired'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

/** What the isolate recorded of a submission's request (the `signals` column, JSON). */
export type Signals = {
  /**
   * It came from a page: a publishable key or a form address. A secret key is a server's (C23):
   * the browser's signals (token, user agent, Accept-Language, country) say nothing of it.
   */
  page: boolean;
  token?: TokenState;
  /** The token's nonce (valid or expired): a second submission with it is spam. */
  nonce?: string;
  /** When the token's nonce stops mattering (ISO time): it has expired by then. */
  nonceUntil?: string;
  /** Milliseconds from the token's first issue (the form first seen) to the submission. */
  fillMs?: number;
  /** The characters of its text values. */
  chars?: number;
  /**
   * C39: of those, the characters the widget saw arrive by pasting, dropping or the browser's
   * autofill, not typed: a person pasting a long message is never held for its length.
   */
  pasted?: number;
  /**
   * C39: the widget's own count, from the first interaction it saw to the send, taken no longer than
   * the token has existed (a late token never makes a post "claimed"; a script's report gains it nothing).
   */
  typingMs?: number;
  /** The script its User-Agent names ('none': it sent none). */
  agent?: string;
  /** It sent no Accept-Language (every browser does). */
  noLanguage?: true;
  /** The country Cloudflare placed its address in (ISO 3166-1 alpha-2). */
  country?: string;
  /** The proof of work's challenge nonce, when it carried a valid one: a second use is spam. */
  pow?: string;
  powUntil?: string;
};

/**
 * User-Agents that scripts and headless browsers send by default (a person's browser never does).
 * Matched at the start or as a word; the name shown is the script's.
 */
const SCRIPT_AGENTS: readonly [RegExp, string][] = [
  [/^curl\//i, 'curl'],
  [/^wget\//i, 'Wget'],
  [/python-requests|python-urllib|aiohttp|httpx|scrapy/i, 'Python'],
  [/^go-http-client/i, 'Go-http-client'],
  [/^java\/|okhttp|apache-httpclient/i, 'Java'],
  [/^node-fetch|^axios|^undici|^node$|^got\b/i, 'Node.js'],
  [/^ruby|^faraday/i, 'Ruby'],
  [/^php|guzzlehttp/i, 'PHP'],
  [/^libwww-perl|^lwp::/i, 'Perl'],
  [/^postmanruntime/i, 'Postman'],
  [/^insomnia/i, 'Insomnia'],
  [
    /headlesschrome|phantomjs|slimerjs|puppeteer|playwright|selenium|electron\/.*\bheadless/i,
    'headless browser',
  ],
  [/\b(bot|crawler|spider)\b/i, 'crawler'],
];

/** The script a User-Agent names, 'none' when there is none, undefined for a browser's. */
export function scriptAgent(userAgent: string | undefined): string | undefined {
  const ua = userAgent?.trim() ?? '';
  if (ua === '') return 'none';
  return SCRIPT_AGENTS.find(([pattern]) => pattern.test(ua))?.[1];
}

/** The characters of a submission's text values (what a person would have typed or pasted). */
export function charsOf(values: Record<string, unknown>): number {
  let n = 0;
  for (const value of Object.values(values)) if (typeof value === 'string') n += [...value].length;
  return n;
}
