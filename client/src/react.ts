// @edge-forms/client/react: a form's submission as React state, and its fields' messages. React is
// a peer dependency; the module is plain TypeScript (createElement, no JSX), so that it needs no JSX
// runtime of its own. The state's changes are one pure reducer, `formReducer`, tested without a DOM.
import * as React from 'react';
import {
  type Client,
  type ClientOptions,
  createClient,
  type FieldErrors,
  type FieldError as FieldProblem,
  type SubmitFailure,
  type SubmitResult,
} from './index.ts';
import { message } from './messages.ts';

export type FormState = 'idle' | 'submitting' | 'succeeded' | 'failed';

/** What the form shows: its state, and after a failure each field's problems, the cause's message and code. */
export type FormModel<T> = {
  state: FormState;
  fieldErrors: FieldErrors<T>;
  message?: string;
  code?: string;
};

export type FormAction<T> =
  | { type: 'submit' }
  | { type: 'done'; result: SubmitResult<T> }
  | { type: 'reset' };

export const initialForm: FormModel<never> = { state: 'idle', fieldErrors: {} };

/** The form's next state. A result that arrives when no submission is under way (after a reset) changes nothing. */
export function formReducer<T>(model: FormModel<T>, action: FormAction<T>): FormModel<T> {
  switch (action.type) {
    case 'submit':
      return { state: 'submitting', fieldErrors: {} };
    case 'done': {
      if (model.state !== 'submitting') return model;
      const { result } = action;
      if (result.ok) return { state: 'succeeded', fieldErrors: {} };
      const failed: FormModel<T> = {
        state: 'failed',
        fieldErrors: result.fieldErrors,
        message: result.message,
      };
      if (result.code) failed.code = result.code;
      return failed;
    }
    case 'reset':
      return initialForm;
    default: {
      const never: never = action;
      return never;
    }
  }
}

export type FormSettings<T> = {
  /** The visitor's language (a BCP 47 tag): `errors` and `message` are then translated (./messages). */
  lang?: string | undefined;
  /** The fields' visible labels, named in translated messages (the field's name otherwise). */
  labels?: Partial<Record<keyof T, string>>;
};

/** A field's problems as one text: translated when `lang` is given, the worker's texts otherwise. */
function sentences(problems: readonly FieldProblem[], lang: string | undefined, label: string): string {
  return problems.map((p) => (lang ? message(p.code, p.params, lang, label) : p.message)).join(' ');
}

/** Each field's messages as one text (translated when `lang` is given), by field name. */
export function errorTexts<T>(
  fieldErrors: FieldErrors<T>,
  { lang, labels }: FormSettings<T> = {},
): Partial<Record<keyof T, string>> {
  const texts: Partial<Record<keyof T, string>> = {};
  for (const [field, problems] of Object.entries(fieldErrors) as [keyof T & string, FieldProblem[]][]) {
    // Defined, not assigned: a field named `__proto__` is an ordinary name (C13).
    const text = sentences(problems, lang, labels?.[field] ?? field);
    Object.defineProperty(texts, field, { value: text, enumerable: true });
  }
  return texts;
}

type Submittable<T> = T | FormData | { preventDefault(): void; currentTarget: EventTarget | null };

const isEvent = <T>(
  input: Submittable<T>,
): input is { preventDefault(): void; currentTarget: HTMLFormElement } =>
  typeof (input as { preventDefault?: unknown }).preventDefault === 'function';

/**
 * A form's submission: `submit(values)` or `onSubmit={form.submit}` (the form's own FormData, sent
 * as multipart to the form address: the client needs its `formId`). One submission at a time: a
 * second while one is under way is ignored. `reset()` (and unmounting) abandons one under way.
 */
export function useForm<T extends Record<string, unknown>>(
  source: Client<T> | ClientOptions,
  settings: FormSettings<T> = {},
) {
  const options = 'submit' in source ? undefined : source;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a client is made again only when its options change, not each time an options object is written out anew
  const client = React.useMemo(
    () => (options ? createClient<T>(options) : (source as Client<T>)),
    [
      options ? undefined : source,
      options?.endpoint,
      options?.key,
      options?.formId,
      options?.fetch,
      options?.timeoutMs,
    ],
  );
  const [model, dispatch] = React.useReducer(formReducer<T>, initialForm);
  const inFlight = React.useRef<AbortController | null>(null);
  React.useEffect(() => () => inFlight.current?.abort(), []);

  const submit = React.useCallback(
    async (input: Submittable<T>): Promise<SubmitResult<T> | undefined> => {
      let values: T | FormData;
      if (isEvent(input)) {
        input.preventDefault();
        values = new FormData(input.currentTarget);
      } else {
        values = input as T | FormData;
      }
      if (inFlight.current) return undefined;
      const abort = new AbortController();
      inFlight.current = abort;
      dispatch({ type: 'submit' });
      try {
        const result = await client.submit(values, { signal: abort.signal });
        dispatch({ type: 'done', result });
        return result;
      } catch (err) {
        if (abort.signal.aborted) return undefined;
        const failure: SubmitFailure<T> = { ok: false, status: 0, message: String(err), fieldErrors: {} };
        dispatch({ type: 'done', result: failure });
        throw err;
      } finally {
        if (inFlight.current === abort) inFlight.current = null;
      }
    },
    [client],
  );

  const reset = React.useCallback(() => {
    inFlight.current?.abort();
    inFlight.current = null;
    dispatch({ type: 'reset' });
  }, []);

  const { lang, labels } = settings;
  return {
    state: model.state,
    submit,
    reset,
    fieldErrors: model.fieldErrors,
    errors: errorTexts(model.fieldErrors, lang ? { lang, ...(labels ? { labels } : {}) } : {}),
    message:
      lang && model.state === 'failed' ? message(model.code ?? 'unknown', undefined, lang) : model.message,
    code: model.code,
  };
}

/** The id of a field's FieldError, for its input's `aria-describedby`. */
export const fieldErrorId = (field: string): string => `${field}-error`;

export type FieldErrorProps<T> = {
  errors: FieldErrors<T> | undefined;
  field: keyof T & string;
  /** The visitor's language: the messages are then translated; the worker's English texts otherwise. */
  lang?: string | undefined;
  /** The field's visible label, named in a translated message (the field's name otherwise). */
  label?: string;
  /** The element's id (`<field>-error` otherwise), for the input's `aria-describedby`. */
  id?: string;
  className?: string;
};

/**
 * A field's messages, or nothing when it has none: a paragraph with `role="alert"` (read out as it
 * appears) and an id that the field's input names in `aria-describedby`.
 */
export function FieldError<T>({ errors, field, lang, label, id, className }: FieldErrorProps<T>) {
  const problems = errors && Object.hasOwn(errors, field) ? (errors[field] ?? []) : [];
  if (problems.length === 0) return null;
  return React.createElement(
    'p',
    { id: id ?? fieldErrorId(field), role: 'alert', className },
    sentences(problems, lang, label ?? field),
  );
}
