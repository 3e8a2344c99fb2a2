// The dashboard's small shared pieces: data loading, times in the viewer's zone, a confirmation
// dialog, a copy button, messages read out by screen readers, a value shown once.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Problem } from './api.ts';

export type Loaded<T> = { data?: T; error?: string; loading: boolean; reload: () => void };

/** Loads `load()` when `deps` change; `reload()` loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error: messageOf(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  return { ...state, reload: useCallback(() => setRound((r) => r + 1), []) };
}

/** One page of a list the API reads by cursor. */
export type Page<T> = { items: T[]; nextCursor?: string | undefined };

/**
 * A list read a page at a time: the first page again whenever `deps` change or `reload` is called
 * (a reply to an earlier question is dropped; `onFirstPage` runs with each first page), and `more`
 * adds the next page.
 */
export function usePages<T>(
  page: (cursor?: string) => Promise<Page<T>>,
  deps: unknown[],
  onFirstPage?: () => void,
) {
  const [rows, setRows] = useState<T[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    page().then(
      (first) => {
        if (!live) return;
        setRows(first.items);
        setNext(first.nextCursor);
        setError(undefined);
        onFirstPage?.();
      },
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  const more = async () => {
    const after = await page(next);
    setRows((r) => [...r, ...after.items]);
    setNext(after.nextCursor);
  };
  return { rows, setRows, next, error, more, reload: useCallback(() => setRound((n) => n + 1), []) };
}

export const messageOf = (error: unknown) =>
  error instanceof Problem || error instanceof Error ? error.message : String(error);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const shortTime = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A time from the API (UTC), shown in the viewer's own time zone (`short`: without the year). */
export function Time({ iso, short = false }: { iso: string | null | undefined; short?: boolean }) {
  if (iso === null || iso === undefined) return <span>—</span>;
  return <time dateTime={iso}>{(short ? shortTime : dateTime).format(new Date(iso))}</time>;
}

// Messages for everyone: at most three on screen, one that repeats a shown one counted on it (×2)
// rather than shown again, the rest waiting their turn. The toasts are one live region: each is
// read out once, when it appears (its count is not read: it is no news).
type Note = { id: number; text: string; kind: 'ok' | 'error'; count: number };
let notify: (n: Pick<Note, 'text' | 'kind'>) => void = () => {};
export const say = (text: string, kind: Note['kind'] = 'ok') => notify({ text, kind });
/** How many toasts are on screen at once, and how long each stays (an error longer). */
export const SHOWN_NOTES = 3;
const STAYS_MS = { ok: 6000, error: 10_000 };

export function Notes() {
  const [shown, setShown] = useState<Note[]>([]);
  useEffect(() => {
    let next = 0;
    let visible: Note[] = [];
    const waiting: Note[] = [];
    const timers = new Map<number, ReturnType<typeof setTimeout>>();
    const timeOut = (note: Note) => {
      clearTimeout(timers.get(note.id));
      timers.set(
        note.id,
        setTimeout(() => leave(note.id), STAYS_MS[note.kind]),
      );
    };
    const enter = (note: Note) => {
      visible = [...visible, note];
      timeOut(note);
    };
    const leave = (id: number) => {
      clearTimeout(timers.get(id));
      timers.delete(id);
      visible = visible.filter((n) => n.id !== id);
      const turn = waiting.shift();
      if (turn) enter(turn);
      setShown(visible);
    };
    notify = (n) => {
      const same = (x: Note) => x.text === n.text && x.kind === n.kind;
      const counted = (x: Note) => (same(x) ? { ...x, count: x.count + 1 } : x);
      const shownAlready = visible.find(same);
      const inLine = waiting.findIndex(same);
      if (shownAlready) {
        visible = visible.map(counted);
        timeOut(shownAlready);
      } else if (inLine >= 0) {
        waiting.splice(inLine, 1, counted(waiting[inLine] as Note));
      } else {
        const note = { ...n, id: next++, count: 1 };
        if (visible.length < SHOWN_NOTES) enter(note);
        else waiting.push(note);
      }
      setShown(visible);
    };
    return () => {
      for (const t of timers.values()) clearTimeout(t);
    };
  }, []);
  return (
    <div class="notes" role="status" aria-live="polite">
      {shown.map((n) => (
        <p key={n.id} class={`note ${n.kind}`}>
          <span>{n.text}</span>
          {n.count > 1 && (
            <span class="count" aria-hidden="true">
              {' '}
              ×{n.count}
            </span>
          )}
        </p>
      ))}
    </div>
  );
}

/** Runs an action, saying what became of it. */
export async function act(action: () => Promise<unknown>, done?: string): Promise<boolean> {
  try {
    await action();
    if (done !== undefined) say(done);
    return true;
  } catch (error) {
    say(messageOf(error), 'error');
    return false;
  }
}

// One confirmation at a time, as a modal <dialog> (focus kept inside, Escape cancels).
let ask: (question: string, yes: string) => Promise<boolean> = async () => false;
export const confirm = (question: string, yes = 'Confirm') => ask(question, yes);

export function ConfirmDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [question, setQuestion] = useState<{ text: string; yes: string } | null>(null);
  const answer = useRef<(yes: boolean) => void>(() => {});
  useEffect(() => {
    ask = (text, yes) =>
      new Promise((resolve) => {
        answer.current = resolve;
        setQuestion({ text, yes });
        dialog.current?.showModal();
      });
  }, []);
  const close = (yes: boolean) => {
    dialog.current?.close();
    setQuestion(null);
    answer.current(yes);
  };
  return (
    <dialog ref={dialog} aria-labelledby="confirm-text" onCancel={() => close(false)}>
      <p id="confirm-text">{question?.text}</p>
      <div class="row">
        <button type="button" onClick={() => close(false)} autofocus>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => close(true)}>
          {question?.yes}
        </button>
      </div>
    </dialog>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  return (
    <button
      type="button"
      onClick={() =>
        void act(async () => {
          await navigator.clipboard.writeText(text);
        }, 'Copied')
      }
    >
      {label}
    </button>
  );
}

/** A secret or key shown this once, with a copy button. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <div class="once" role="alert">
      <p>
        <strong>{label}</strong> — shown this once: copy it now; only its hash is kept.
      </p>
      <code class="secret">{value}</code>
      <div class="row">
        <CopyButton text={value} />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

export function Section({
  title,
  children,
  id,
}: {
  title: string;
  children: ComponentChildren;
  id?: string;
}) {
  const heading = id ?? title.toLowerCase().replace(/\W+/g, '-');
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      {children}
    </section>
  );
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A labelled choice of one among `options` (value and the words shown for it). */
export function Choice<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T | undefined;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
