// C47: one message through the owner's provider, and what its answer means for the delivery, as a
// receiver's answer does for a webhook (C26): 2xx delivered; the key refused (401, 403) or the
// message refused (400, 422, any other 4xx but 408 and 429) failed for good, saying so with the
// provider's reason; a 429 retried after its Retry-After; 5xx, 408 and network faults retried on the
// schedule. Loaded by `import()` where a mail is sent, never on a form post's path. The key and
// the secret are never in what is recorded, even when an answer repeats them.
import { errorText } from '../../lib/faults.ts';
import { type EmailAttempt, headerText, type NotificationEmail, type ProviderSetup } from '../mail.ts';
import { type HttpContext, httpRequest, type Reply } from '../outbound.ts';
import { APIS } from './requests.ts';

/** What the provider's answer says went wrong: its message (each names it `message` or `Message`), else its text. */
function reasonOf(reply: Reply): string {
  const answer = reply.json as Record<string, unknown> | undefined;
  const said = typeof answer === 'object' && answer !== null ? (answer.message ?? answer.Message) : undefined;
  const text = typeof said === 'string' && said.trim() !== '' ? said : (reply.excerpt ?? 'no reason given');
  return headerText(text, 200);
}

/** What a provider's answer means (C47). */
export function mailMeaning(reply: Reply, p: Pick<ProviderSetup, 'name'>): EmailAttempt {
  const { json, ...answer } = reply;
  const { status } = reply;
  const api = APIS[p.name];
  const said = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  if (status === null) return { ...answer, ok: false };
  if (status >= 200 && status < 300) {
    const id = api.sentId(said);
    return {
      ...answer,
      ok: true,
      error: null,
      excerpt: typeof id === 'string' ? `sent ${id}`.slice(0, 200) : answer.excerpt,
    };
  }
  const refused = status >= 400 && status < 500 && status !== 408 && status !== 429;
  if ((status === 401 || status === 403) && api.refusesMessage?.(status, said) !== true) {
    const keys = p.name === 'ses' ? 'EMAIL_API_KEY and EMAIL_API_SECRET' : 'EMAIL_API_KEY';
    return {
      ...answer,
      ok: false,
      final: true,
      error: `key refused: ${api.label} did not take the deployment's key (${keys}), ${status}: ${reasonOf(reply)}`,
    };
  }
  if (refused) {
    return {
      ...answer,
      ok: false,
      final: true,
      error: `message refused: ${api.label} did not take it, ${status}: ${reasonOf(reply)}`,
    };
  }
  return { ...answer, ok: false };
}

/** What must never be recorded, each with what stands for it: the key, the secret, Mailgun's Basic credentials. */
function secretsOf(p: ProviderSetup): [string, string][] {
  const out: [string, string][] = [];
  if (p.key !== undefined) {
    out.push([p.key, '[EMAIL_API_KEY]']);
    try {
      out.push([btoa(`api:${p.key}`), '[EMAIL_API_KEY]']);
    } catch {
      // A key btoa cannot encode was never sent as Basic credentials either.
    }
  }
  if (p.secret !== undefined) out.push([p.secret, '[EMAIL_API_SECRET]']);
  return out.filter(([secret]) => secret.length >= 4);
}

/** The text with every secret replaced, and a secret's start at its end (an excerpt cut in it) cut off. */
function hidden(text: string | null, secrets: [string, string][]): string | null {
  if (text === null) return null;
  let out = text;
  for (const [secret, shown] of secrets) {
    out = out.replaceAll(secret, shown);
    for (let n = Math.min(secret.length - 1, out.length); n >= 4; n--) {
      if (out.endsWith(secret.slice(0, n))) {
        out = `${out.slice(0, -n)}…`;
        break;
      }
    }
  }
  return out;
}

/** One message through the provider: its request, its answer's meaning, no secret in what is kept. */
export async function sendByProvider(
  p: ProviderSetup,
  message: NotificationEmail,
  http: HttpContext,
): Promise<EmailAttempt> {
  const secrets = secretsOf(p);
  const keep = (a: EmailAttempt): EmailAttempt => ({
    ...a,
    error: hidden(a.error, secrets),
    excerpt: hidden(a.excerpt, secrets),
  });
  if (p.key === undefined)
    return { ok: false, status: null, error: 'EMAIL_API_KEY is not set', excerpt: null };
  const api = APIS[p.name];
  let request: Awaited<ReturnType<typeof api.request>>;
  try {
    request = await api.request(message, { ...p, key: p.key });
  } catch (cause) {
    return keep({
      ok: false,
      status: null,
      error: `the ${api.label} request could not be made: ${errorText(cause, 200)}`,
      excerpt: null,
    });
  }
  const reply = await httpRequest(http, request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    json: true,
  });
  return keep(mailMeaning(reply, p));
}
