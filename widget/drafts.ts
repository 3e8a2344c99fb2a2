// C46: partial submissions of a hosted page in steps, for /widget/steps.js. A draft's token is made
// here, 16 random bytes (128 bits) as base64url, and lives only in the page's address
// (`?resume=<token>`, put there once the first draft is saved): never in a cookie nor in storage.
// After each step the values (never a file) are saved under it, one request the page waits for
// before it shows the next step, so that no save can come after the send; the send carries the
// token (`_draft`), and the worker deletes the draft in the submission's own write. A page opened
// with `?resume=` is filled with the draft's values and opens at the step it reached; one whose
// draft is gone starts afresh, and says nothing of it.
import { DRAFT_OPEN_PATH, DRAFTS_PATH } from '../src/http/paths.ts';

/** 16 random bytes as base64url: 22 characters. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The page's address with its draft's token (or without one). */
export function withToken(href: string, token: string | undefined): string {
  const url = new URL(href);
  if (token === undefined) url.searchParams.delete('resume');
  else url.searchParams.set('resume', token);
  return url.href;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** C46: a draft's values put back in the form's controls (as DOM properties, never HTML). */
export function fill(form: HTMLFormElement, values: Record<string, unknown>): void {
  for (const element of Array.from(form.elements)) {
    const c = element as Control;
    if (!c.name || !Object.hasOwn(values, c.name) || c.type === 'file' || c.type === 'hidden') continue;
    const value = values[c.name];
    if (c instanceof HTMLInputElement && c.type === 'checkbox') c.checked = value === true;
    else if (c instanceof HTMLInputElement && c.type === 'radio') c.checked = c.value === String(value);
    else c.value = String(value);
  }
}

async function post(url: string, body: unknown): Promise<Response | undefined> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 8000);
  try {
    return await fetch(url, {
      method: 'POST',
      body: JSON.stringify(body),
      credentials: 'omit',
      signal: abort.signal,
    });
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

export type Drafts = {
  /** The step a resumed draft reached (1-based), its values put in the form; none: start afresh. */
  resume(): Promise<number | undefined>;
  /** Saves the values at the step reached; a failure keeps the page going, unsaved. */
  save(step: number, values: Record<string, unknown>): Promise<void>;
  /** The form was sent: its draft is gone (the worker deleted it); a new one begins. */
  sent(): void;
};

export function drafts(form: HTMLFormElement, base: string, formId: string): Drafts {
  let token = new URLSearchParams(location.search).get('resume') ?? undefined;
  const resumeNote = form.querySelector<HTMLElement>('[data-resume]');
  // The send carries the token, so that the worker deletes the draft with the submission's write.
  const carried = document.createElement('input');
  carried.type = 'hidden';
  carried.name = '_draft';
  const show = () => {
    if (token === undefined) return;
    const link = withToken(location.href, token);
    history.replaceState(history.state, '', link);
    const a = resumeNote?.querySelector('a');
    if (resumeNote && a) {
      a.href = link;
      a.textContent = link;
      resumeNote.hidden = false;
    }
    carried.value = token;
    if (!carried.isConnected) form.append(carried);
  };
  return {
    async resume() {
      if (token === undefined || !/^[A-Za-z0-9_-]{22,64}$/.test(token)) {
        token = undefined;
        return undefined;
      }
      const res = await post(new URL(DRAFT_OPEN_PATH, base).href, { form: formId, token });
      if (!res?.ok) {
        // Sent, ended, or never: the page starts afresh, under a new token once it saves.
        token = undefined;
        history.replaceState(history.state, '', withToken(location.href, undefined));
        return undefined;
      }
      const { data } = (await res.json()) as { data: { step: number; values: Record<string, unknown> } };
      fill(form, data.values);
      show();
      return data.step;
    },
    async save(step, values) {
      token ??= newToken();
      const res = await post(new URL(DRAFTS_PATH, base).href, { form: formId, token, step, values });
      // Unsaved (offline, limited): the page goes on; the next step's save tries again.
      if (res?.ok) show();
    },
    sent() {
      token = undefined;
      carried.remove();
      if (resumeNote) resumeNote.hidden = true;
      history.replaceState(history.state, '', withToken(location.href, undefined));
    },
  };
}
