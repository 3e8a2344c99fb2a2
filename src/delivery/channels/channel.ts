// C26, C27, C35, C36, C38: what a delivery kind is: one module of this folder exporting one
// Channel. Everything that differs by kind is here: what adds a target of it (the API's body, the
// tool's options, the dashboard's fields), how it is shown, how one delivery is sent (and a batch,
// where the service takes several), and what a status means. The rest (the outbox, the claim, the
// retries, the log) is the same for every kind: ../attempt.ts.
import * as v from 'valibot';
import { type HookHome, hookProblem } from '../../lib/destinations.ts';
import type { Db } from '../../store/db.ts';
import type { DeliveryToSend } from '../../store/deliveries.ts';
import type { ConfirmationCaps } from '../confirm.ts';
import type { MailSetup } from '../mail.ts';
import { type AttemptResult, type HttpContext, httpRequest, meaning, type StatusRules } from '../outbound.ts';

/**
 * What sends email (C27): the `send_email` binding (C47: or the owner's provider) and the sender
 * address, EMAIL_FROM; and (C35) the confirmations' daily caps.
 */
export type EmailSetup = MailSetup & { caps?: ConfirmationCaps };

/** What an attempt is made with: D1, where it may go, email, the worker's address (C36), the stand-in (C38). */
export type SendContext = HttpContext & {
  db: Db;
  /** C26: plain http to this machine (ALLOW_LOCAL_WEBHOOKS, the tool). */
  allowLocalHttp: boolean;
  /** C36: the worker's own address, for a message's link to the dashboard. */
  publicUrl: string | undefined;
  /** C38: a stand-in for every integration's API, set only with `allowLocalHttp`. */
  apiBase: string | undefined;
  email: EmailSetup | undefined;
};

/** A target as a test is sent to it: its id, URL and secrets. */
export type TestTarget = {
  id: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: string | null;
};

type Common = {
  /** Its name, as the dashboard and the tool show it. */
  name: string;
  /** One attempt of one delivery. */
  send(d: DeliveryToSend, ctx: SendContext): Promise<AttemptResult>;
  /**
   * Where the service takes several in one request (C38: Airtable): at most `size` deliveries to
   * the same target, one answer for all. A batch refused as final is sent again one by one.
   */
  batch?: { size: number; send(batch: readonly DeliveryToSend[], ctx: SendContext): Promise<AttemptResult> };
};

/** C26, C36: a URL the owner pastes: a signed webhook, or a chat platform's incoming webhook. */
export type HookChannel = Common & {
  family: 'webhook';
  /**
   * What its answer's status means, as `send` reads it (C26: only 410 disables a signed webhook;
   * C36: a chat hook deleted answers 404 or 410); test/channels.test.ts holds every kind to it.
   */
  rules: StatusRules;
  /** The dashboard's choice, and an example URL for its field. */
  label: string;
  example: string;
  /** Why a URL may not be one (when it is added, and before every attempt). */
  problem(url: string, allowLocalHttp: boolean): string | undefined;
  /** C36: a URL as listed (a chat hook's is a secret: shown by its start and last four). */
  shown(url: string): string;
  /** C26: it signs with a secret of ours, shown once and rotatable (a chat hook's URL is its secret). */
  signs: boolean;
  /** The test message of `webhook test` and the dashboard's Test button. */
  test(
    hook: TestTarget,
    project: { id: string; name: string },
    messageId: string,
    ctx: SendContext,
  ): Promise<AttemptResult>;
};

/** One thing the owner gives to add an integration: a member of the API's body, a field, an option. */
export type SetupInput = {
  /** The body's member. */
  key: string;
  /** The dashboard's label. */
  label: string;
  /** The tool's option (`--database <id>`) and what it says of it. */
  option: string;
  help: string;
  /**
   * A secret, read by the tool from a file (never an argument) and typed in a password field:
   * `token`, text; `json`, a key file given as JSON (a textarea).
   */
  secret?: { what: string; kind: 'token' } | { what: string; kind: 'json'; invalid: string };
  /** Left out: the value given instead. */
  fallback?: string;
};

/** C38: a service written to through its API, with the owner's credentials. */
export type IntegrationChannel = Common & {
  family: 'integration';
  /**
   * What the answer that delivers means, as `send` reads it (C38: `serviceRules`, with the
   * service's wait for a 429 that gives none); test/channels.test.ts holds every kind to it.
   */
  rules: StatusRules;
  /** The dashboard's paragraph: what it writes, and what to make at the service first. */
  help: string;
  /** What adds one, besides its kind (valibot entries: the API's body and the document). */
  entries: v.ObjectEntries;
  inputs: readonly SetupInput[];
  /** Where it writes, from its settings: `{name}` a setting, “…” quoted (the tool quotes with '). */
  writesTo: string;
  /** Its settings (no secret), its secret, and the URL a target keeps, from the checked input. */
  stored(input: Record<string, unknown>): { config: Record<string, string>; secret: string; url: string };
  /** A check the schema cannot make (a Google key must sign): the problem, if any. */
  verify?(input: Record<string, unknown>): Promise<string | undefined>;
  /** C38: the secret as shown: the last four of what identifies it; and whom to share with. */
  shownSecret(secret: string): { last: string; serviceAccount?: string };
};

/** C27, C35: an email, to an address that agreed (C37) or to the submitter. */
export type MailChannel = Common & { family: 'notification' | 'confirmation' };

export type Channel = HookChannel | IntegrationChannel | MailChannel;
export type Family = Channel['family'];

/** C36: a hook deleted answers 404 (or 410): no retry helps. */
const HOOK_GONE: StatusRules = { disableOn: [404, 410], because: 'gone' };

/**
 * C36: a chat platform's incoming webhook: checked against its home (when added, and before every
 * attempt), shown without its token, sent its platform's message (or test message) as JSON.
 */
export function chatHook(
  home: HookHome,
  chat: {
    label: string;
    example: string;
    message(d: DeliveryToSend, publicUrl: string | undefined): string;
    test(projectName: string): string;
  },
): HookChannel {
  const problem = (url: string, allowLocalHttp: boolean) => hookProblem(url, home, allowLocalHttp);
  const post = async (url: string, body: string, ctx: SendContext): Promise<AttemptResult> =>
    meaning(await httpRequest(ctx, url, { method: 'POST', body }), HOOK_GONE);
  return {
    family: 'webhook',
    name: home.name,
    rules: HOOK_GONE,
    label: chat.label,
    example: chat.example,
    signs: false,
    problem,
    shown: (url) => {
      const { origin, pathname } = new URL(url);
      const parts = pathname.split('/');
      return `${origin}${parts.slice(0, 3).join('/')}/…${pathname.slice(-4)}`;
    },
    send(d, ctx) {
      const refused = problem(d.url, ctx.allowLocalHttp);
      if (refused !== undefined)
        return Promise.resolve({ ok: false, status: null, error: refused, excerpt: null });
      return post(d.url, chat.message(d, ctx.publicUrl), ctx);
    },
    test: (hook, project, _messageId, ctx) => post(hook.url, chat.test(project.name), ctx),
  };
}

/**
 * C38: what an integration's answer means: 401, 403 and 404 refused (a token revoked, a sheet or a
 * database not shared, a chat the bot was removed from: no retry helps, the target is disabled);
 * any other 4xx but 408 and 429 final (the request itself is wrong); the rest retried (429 after
 * its Retry-After, or `quotaSeconds` when it gives none).
 */
export const serviceRules = (quotaSeconds: number): StatusRules => ({
  disableOn: [401, 403, 404],
  because: 'refused',
  wrong4xx: true,
  quotaSeconds,
});

/** A setting or a secret given as text: trimmed, not empty, at most `max` characters. */
export const settingText = (max: number, what: string) =>
  v.pipe(
    v.string(`${what} must be text`),
    v.trim(),
    v.nonEmpty(`${what} is missing`),
    v.maxLength(max, `${what} is too long`),
  );

/** C38: a secret as it is ever shown: its last four characters. */
export const lastFour = (secret: string) => `…${secret.slice(-4)}`;
