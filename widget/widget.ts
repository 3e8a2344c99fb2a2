// The form widget, served by the worker's static assets as /widget.js (with altcha-lib's solver only);
// compiled and minified by `npm run build:assets`. Usage:
//   <form data-endpoint="https://forms.example/api/v1/submit" data-key="edgeform_…"> … </form>
//   <script src="https://forms.example/widget.js" defer></script>
// or from code: EdgeForms.attach(form, { endpoint, key }) and EdgeForms.send({ endpoint, key, data }).
// A form with a file input is sent as multipart, with its files, to its own `action`: the project's
// HTML form address (`/f/<form-id>`), which is also where the form posts when scripts are off.
// A failure is worded in the page's language, from the worker's catalogue of it (i18n.ts, C43).
import { track, trackerOf } from './analytics.ts';
import { type Guard, guard, guardPlainForm } from './guard.ts';
import { labelOf, wording } from './i18n.ts';
import { ui } from './notes.ts';

type Options = { endpoint: string; key: string; success?: string; timeoutMs?: number };
type Issue = { field: string; code: string; params?: Record<string, unknown> };
type Reply = {
  data?: {
    message?: string;
    error?: { message?: string; code?: string; params?: Record<string, unknown> };
    errors?: string[];
    issues?: Issue[];
  };
  status?: { code?: number };
};
export type Outcome = { ok: boolean; status: number; reply: Reply; replayed: boolean };

const MAX_ATTEMPTS = 4;
/** One attempt that has not been answered (and read) in this time is abandoned and retried. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of a Retry-After header, else an exponential backoff (1 s, 2 s, 4 s), both capped. */
export function retryDelay(res: Response | undefined, attempt: number): number {
  const seconds = Number(res?.headers.get('Retry-After'));
  return Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 500 * 2 ** attempt, 10_000);
}

/** A random Idempotency-Key; randomUUID exists only on secure (HTTPS or localhost) pages. */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/**
 * POSTs one submission. A network error, an attempt with no whole answer within the time-out, 409
 * (the first try is still being saved) or 503 is retried with backoff, honouring Retry-After,
 * under the same Idempotency-Key, so that a retry of a submission that did arrive is answered from
 * the first one and never stored twice. After the last attempt, a network error or time-out throws.
 * C29, C30: `data` as FormData is sent as multipart to the form address, which takes no key, with
 * an Idempotency-Key too (C20): it is retried the same way, and its files are never stored twice.
 */
export async function send(
  options: Options & { data: Record<string, unknown> | FormData },
): Promise<Outcome> {
  const multipart = typeof FormData !== 'undefined' && options.data instanceof FormData;
  const headers: Record<string, string> = multipart
    ? { Accept: 'application/json', 'Idempotency-Key': newKey() }
    : {
        Authorization: `Bearer ${options.key}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': newKey(),
      };
  const body = multipart ? (options.data as FormData) : JSON.stringify(options.data);
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    // A stalled connection must not leave the form "Sending…" for good: each attempt has a time-out,
    // over the answer and its body both.
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let res: Response;
    let reply: Reply;
    try {
      res = await fetch(options.endpoint, {
        method: 'POST',
        headers,
        body,
        // fetch's own mode is `cors`: a request to another origin is one.
        signal: abort.signal,
      });
      if ((res.status === 503 || res.status === 409) && attempt < MAX_ATTEMPTS) {
        clearTimeout(timer);
        await sleep(retryDelay(res, attempt));
        continue;
      }
      reply = (await res.json().catch((err: unknown) => {
        if (abort.signal.aborted) throw err;
        return {};
      })) as Reply;
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS) throw err;
      await sleep(retryDelay(undefined, attempt));
      continue;
    } finally {
      clearTimeout(timer);
    }
    return {
      ok: res.ok,
      status: res.status,
      reply,
      replayed: res.headers.get('Idempotent-Replayed') === 'true',
    };
  }
}

/**
 * C22: a Turnstile token can be redeemed once. Once a submission has ended (sent, refused, or given
 * up), the page's Turnstile widget is reset so that the next attempt carries a fresh token; retries
 * inside one submission keep its token, which the service lets through for that submission.
 */
function resetTurnstile(form: HTMLFormElement): void {
  const turnstile = (globalThis as { turnstile?: { reset(widget?: Element | string): void } }).turnstile;
  if (typeof turnstile?.reset !== 'function') return;
  const widget = form.querySelector('.cf-turnstile');
  try {
    if (widget) turnstile.reset(widget);
    else turnstile.reset();
  } catch {
    // A page whose widget is gone or was rendered elsewhere: nothing to reset here.
  }
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * The form's controls as typed JSON: a checkbox is a boolean, a number input a number (whole or
 * not), everything else a string; an empty control is left out (C29: a field not filled in), so
 * that a required one is "required", never an empty string.
 */
export function collect(form: HTMLFormElement): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    const control = element as Control;
    if (!control.name || control.disabled || !('value' in control)) continue;
    const type = control.type;
    if (type === 'submit' || type === 'button' || type === 'reset' || type === 'file' || type === 'image')
      continue;
    if (type === 'checkbox') {
      data[control.name] = (control as HTMLInputElement).checked;
    } else if (type === 'radio') {
      if ((control as HTMLInputElement).checked) data[control.name] = control.value;
    } else if (control.value === '') {
      // Left out: the project sees an absent field, not an empty string.
    } else if (type === 'number' || type === 'range') {
      data[control.name] = Number(control.value);
    } else {
      data[control.name] = control.value;
    }
  }
  return data;
}

/**
 * C30: a form with a named file input goes as multipart (its files with it) to its own `action`,
 * the HTML form address; any other form as typed JSON to the endpoint. C39: with the guard's
 * fields (the widget's token, the fill time, a proof of work).
 */
export function formPayload(
  form: HTMLFormElement,
  endpoint: string,
  extra: Record<string, string> = {},
): { endpoint: string; data: Record<string, unknown> | FormData } {
  const action = form.getAttribute('action');
  const to = action && new URL(action, document.baseURI).href;
  if (to && (to === endpoint || form.querySelector('input[type=file][name]'))) {
    const data = new FormData(form);
    for (const [name, value] of Object.entries(extra)) data.set(name, value);
    return { endpoint: to, data };
  }
  return { endpoint, data: { ...collect(form), ...extra } };
}

const FIELD_IN_MESSAGE = /^Field '(.+)' /;

export function attach(form: HTMLFormElement, options: Options): void {
  const view = ui(form);
  // C43: the worker whose catalogue words this form's failures.
  const base = widgetOrigin ?? options.endpoint;
  const g: Guard | undefined =
    typeof fetch === 'function'
      ? guard(form, options.endpoint, trackerOf(form, undefined, true)?.id ?? { key: options.key })
      : undefined;
  // C44: a hosted page leaves its checks to the worker once the widget has it, each said beside its
  // field in the page's language; without the widget (scripts off) the browser's own checks stand.
  // Any other form keeps whatever checks its author gave it.
  if (form.dataset.checks === 'worker') form.noValidate = true;
  let sending = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    // One submission at a time: a double click sends once.
    if (sending) return;
    sending = true;
    const buttons = Array.from(form.querySelectorAll<HTMLButtonElement>('button, input[type=submit]'));
    for (const b of buttons) b.disabled = true;
    form.setAttribute('aria-busy', 'true');
    view.clear();
    view.show('sending', form.dataset.sending ?? 'Sending…');
    const emit = (name: string, detail: unknown) =>
      form.dispatchEvent(new CustomEvent(name, { detail, bubbles: true }));
    try {
      const extra = (await g?.fields()) ?? {};
      const outcome = await send({ ...options, ...formPayload(form, options.endpoint, extra) });
      if (outcome.ok) {
        view.show('success', options.success ?? outcome.reply.data?.message ?? 'Sent');
        form.reset();
        g?.renew();
        emit('forms:success', outcome);
      } else {
        const data = outcome.reply.data ?? {};
        const say = await wording(form, base);
        // C43: the cause's code; a validation failure's issues, each beside its English text.
        const code = data.error?.code ?? (data.errors ? 'validation_failed' : undefined);
        const general: string[] = [];
        const issues = (data.errors ?? []).map((text, i) => {
          const issue = data.issues?.[i];
          const field = issue?.field ?? FIELD_IN_MESSAGE.exec(text)?.[1];
          const message = (field && issue && say(issue.code, issue.params, labelOf(form, field))) || text;
          if (!(field && view.fieldError(field, message))) general.push(message);
          return { ...issue, field, message };
        });
        // A reply that is not the worker's has neither code nor text: the catalogue's general one.
        const cause = say(code ?? (data.message ? undefined : 'unknown'), data.error?.params);
        if (cause) {
          view.show('error', [cause, ...general].join(' '));
        } else {
          if (data.error?.message) general.unshift(data.error.message);
          const summary = data.message ?? `Error ${outcome.status}`;
          view.show('error', general.length ? `${summary}: ${general.join('; ')}` : summary);
        }
        emit('forms:error', { ...outcome, code, issues });
      }
    } catch (error) {
      const say = await wording(form, base);
      view.show(
        'error',
        say('network_error') ?? 'The form could not be sent: check your connection and try again.',
      );
      emit('forms:error', { ok: false, status: 0, error, code: 'network_error' });
    } finally {
      resetTurnstile(form);
      sending = false;
      for (const b of buttons) b.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
}

function attachAll(): void {
  for (const form of Array.from(
    document.querySelectorAll<HTMLFormElement>('form[data-endpoint][data-key]'),
  )) {
    const { endpoint = '', key = '', success } = form.dataset;
    attach(form, { endpoint, key, ...(success !== undefined && { success }) });
  }
  for (const form of document.forms) {
    const tracker = trackerOf(form, widgetOrigin, true);
    if (tracker === undefined) continue;
    // C39: a plain form posting to this worker carries the widget's token as hidden inputs.
    if ('form' in tracker.id && !form.dataset.endpoint)
      guardPlainForm(form, guard(form, tracker.url, tracker.id));
    if (form.dataset.analytics !== 'off') track(form, tracker);
  }
  // C45: conditions, capture and prefill are a script of their own (logic.ts), fetched only for a
  // form that has a condition or a captured field, or is marked for prefill on an address with a
  // query.
  if (
    widgetOrigin &&
    document.querySelector(`[data-capture],[data-when]${location.search && ',[data-prefill]'}`)
  )
    import(`${widgetOrigin}/widget/logic.js`);
}

// The origin the widget was loaded from: a plain form is tracked only when it posts there, and the
// catalogue that words a failure (C43) is fetched from there.
const widgetOrigin = (() => {
  try {
    const src = (document.currentScript as HTMLScriptElement | null)?.src;
    return src ? new URL(src).origin : undefined;
  } catch {
    return undefined;
  }
})();

(globalThis as { EdgeForms?: unknown }).EdgeForms = { attach, send, collect, formPayload, track, trackerOf };
if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', attachAll);
  else attachAll();
}
