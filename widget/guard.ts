// C39: what the widget sends beside a form's values so that its worker can tell a person's page
// from a script: a token asked for when the form is first seen (renewed before it expires, keeping
// that first time; asked again once if refused), the milliseconds from the first interaction to the
// send, how many of the characters sent were not typed (pasted, dropped, autofilled: a person
// pasting is never held for it), and, for a project that requires one, a proof of work solved in
// the background (ALTCHA's, by altcha-lib) before the visitor presses send. Never in the way: if
// the worker cannot be reached, the form is sent without.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';

type Challenge = Parameters<typeof solveChallenge>[0]['challenge'];
type Issued = { token: string; expiresAt: string; challenge?: Challenge };

const TOKEN_PATH = '/api/v1/widget-token';
/** A token this close to its expiry is renewed before it is sent. */
const RENEW_MS = 2 * 60_000;

/** The body fields the worker reads (and never stores). */
const TOKEN_FIELD = '_widget_token';
const FILL_FIELD = '_fill_ms';
const PASTED_FIELD = '_pasted';
const PROOF_FIELD = 'altcha';

export type Guard = {
  /** The fields to send with a submission (waiting for a proof still being solved). */
  fields(): Promise<Record<string, string>>;
  /** The fields ready now, or undefined when something is still to wait for. */
  ready(): Record<string, string> | undefined;
  /** A submission was accepted: the next one gets a token of its own. */
  renew(): void;
};

/** Asks for a token; refused or unreachable, once more a few seconds later (many people may share an address). */
export async function ask(
  url: string,
  body: Record<string, string>,
  again = true,
): Promise<Issued | undefined> {
  try {
    // text/plain: no preflight, as analytics' events.
    const res = await fetch(url, { method: 'POST', body: JSON.stringify(body), credentials: 'omit' });
    if (res.ok) return ((await res.json()) as { data: Issued }).data;
  } catch {}
  if (!again) return undefined;
  await new Promise((r) => setTimeout(r, 2000 + Math.random() * 3000));
  return ask(url, body, false);
}

async function solve(challenge: Challenge | undefined): Promise<string | undefined> {
  if (challenge === undefined) return undefined;
  try {
    const solution = await solveChallenge({ challenge, deriveKey });
    return solution === null ? undefined : btoa(JSON.stringify({ challenge, solution }));
  } catch {
    return undefined;
  }
}

/**
 * The guard of one form, asking the worker at `base` (the form's endpoint or action) as `id` (its
 * key, or its form id). The time of the first input is the form's, so it counts from the page.
 */
export function guard(form: HTMLFormElement, base: string, id: { key: string } | { form: string }): Guard {
  const url = new URL(TOKEN_PATH, base).href;
  let issued: Issued | undefined;
  let proof: string | undefined;
  let pending: Promise<void> = Promise.resolve();
  let busy = false;
  let firstInput: number | undefined;
  // Characters typed key by key: the rest of what is sent arrived otherwise.
  let typed = 0;
  const fetchToken = (previous?: string) => {
    busy = true;
    pending = (async () => {
      const next = await ask(url, previous === undefined ? id : { ...id, previous });
      if (next !== undefined) {
        issued = next;
        proof = await solve(next.challenge);
      }
      busy = false;
    })();
    return pending;
  };
  const started = (event: Event) => {
    firstInput ??= Date.now();
    if ((event as InputEvent).inputType === 'insertText') typed += (event as InputEvent).data?.length ?? 0;
  };
  for (const type of ['focusin', 'pointerdown', 'keydown', 'input', 'change'])
    form.addEventListener(type, started);
  // A page the browser kept and showed again (Back) would send its spent token: renewed, keeping its start.
  addEventListener('pageshow', (event) => {
    if (event.persisted) fetchToken(issued?.token);
  });
  fetchToken();
  const now = () => {
    if (issued === undefined) return {};
    let chars = 0;
    new FormData(form).forEach((value) => {
      if (typeof value === 'string') chars += value.length;
    });
    const fields: Record<string, string> = {
      [TOKEN_FIELD]: issued.token,
      [FILL_FIELD]: String(firstInput === undefined ? 0 : Date.now() - firstInput),
      [PASTED_FIELD]: String(Math.max(0, chars - typed)),
    };
    if (proof !== undefined) fields[PROOF_FIELD] = proof;
    return fields;
  };
  const expiring = () => issued !== undefined && Date.parse(issued.expiresAt) - Date.now() < RENEW_MS;
  return {
    async fields() {
      await pending;
      if (expiring()) await fetchToken(issued?.token);
      return now();
    },
    ready() {
      return busy || expiring() ? undefined : now();
    },
    renew() {
      firstInput = undefined;
      typed = 0;
      fetchToken();
    },
  };
}

/**
 * A plain HTML form (posted by the browser itself): the guard's fields as hidden inputs, filled in
 * as the form is sent. When the token or the proof is not there yet, the send waits for it.
 */
export function guardPlainForm(form: HTMLFormElement, g: Guard): void {
  const set = (fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) {
      let input = form.querySelector<HTMLInputElement>(`input[type=hidden][name="${name}"]`);
      if (input === null) {
        input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        form.append(input);
      }
      input.value = value;
    }
  };
  let waited = false;
  form.addEventListener('submit', (event) => {
    const ready = g.ready();
    if (ready !== undefined || waited) {
      if (ready !== undefined) set(ready);
      return;
    }
    event.preventDefault();
    waited = true;
    void g.fields().then((fields) => {
      set(fields);
      form.submit();
    });
  });
}
