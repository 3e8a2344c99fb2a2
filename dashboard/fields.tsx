// A field's definition as a form (C28, C30): its name, type, whether it is required, and the rules
// its type takes; C44: what it shows (label, help, placeholder) in each of the project's languages.
// The server checks it as the tool checks a field spec; its sentence is shown next to the field it
// names. A field that looks like it asks for a secret is warned of (C44, dashboard/secrets-words.ts).
// C46: the step of the hosted page it is on.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { CAPTURE_SOURCES } from '../src/fields/capture.ts';
import { FORMATS, RULES_OF } from '../src/fields/catalogue.ts';
import { MAX_STEPS } from '../src/fields/display.ts';
import type { Field, FieldRules } from './embed.ts';
import { SecretWarning } from './secret-warning.tsx';

/** C44: what a field shows, each a map of language tag → text. */
const SHOWN = ['label', 'help', 'placeholder'] as const;
type Shown = (typeof SHOWN)[number];

export type Draft = {
  name: string;
  type: Field['type'];
  required: boolean;
  /** Each rule as typed: text, turned into JSON by `toField`. */
  rules: Partial<Record<keyof FieldRules, string>>;
  /** C44: its label, help and placeholder as typed, by language (a blank one is none). */
  shows: Record<Shown, Record<string, string>>;
  /** What it showed when it was read: sent again (perhaps emptied) even when now blank. */
  had: Shown[];
  /** C44: a text field's control: several lines, one, or by its maxLength (over 200: several). */
  lines: Lines;
  /** C46: the step of the hosted page it is on, as typed (blank: the first). */
  step: string;
  /** C45: where a hidden field's value comes from, as typed (blank: a person fills it). */
  capture: string;
};

type Lines = 'auto' | 'one' | 'several';
const LINES: Record<Lines, string> = {
  auto: 'by its maxLength',
  one: 'one line',
  several: 'several lines',
};

const HINTS: Record<(typeof RULES_OF)[Field['type']][number], string> = {
  format: '',
  minLength: 'characters',
  maxLength: 'characters',
  min: 'least value',
  max: 'greatest value',
  oneOf: 'choices, comma-separated',
  pattern: 'a regular expression (RE2)',
  maxSize: 'e.g. 5MB',
  accept: 'types, comma-separated: application/pdf, image/*',
};

export const emptyDraft = (): Draft => ({
  name: '',
  type: 'string',
  required: false,
  rules: {},
  shows: { label: {}, help: {}, placeholder: {} },
  had: [],
  lines: 'auto',
  step: '',
  capture: '',
});

export function draftOf(f: Field): Draft {
  const rules: Draft['rules'] = {};
  for (const [k, v] of Object.entries(f.rules ?? {}) as [keyof FieldRules, unknown][]) {
    rules[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return {
    name: f.name,
    type: f.type,
    required: f.required,
    rules,
    shows: { label: { ...f.label }, help: { ...f.help }, placeholder: { ...f.placeholder } },
    had: SHOWN.filter((member) => Object.keys(f[member] ?? {}).length > 0),
    lines: f.multiline === true ? 'several' : f.multiline === false ? 'one' : 'auto',
    step: f.step === undefined || f.step === null ? '' : String(f.step),
    capture: f.capture ?? '',
  };
}

/**
 * C44: what the field shows, as the API takes it: each text trimmed, a blank one left out. A member
 * is sent when it has a text or had one (then `{}`, none): a PUT without it keeps what it had.
 * Languages the editor does not show (not the page's) are sent as they were.
 */
function shownOf(d: Draft): Partial<Record<Shown, Record<string, string>>> {
  const out: Partial<Record<Shown, Record<string, string>>> = {};
  for (const member of SHOWN) {
    const texts = Object.entries(d.shows[member])
      .map(([lang, text]) => [lang, text.trim()] as const)
      .filter(([, text]) => text !== '');
    if (texts.length > 0 || d.had.includes(member)) out[member] = Object.fromEntries(texts);
  }
  return out;
}

/** A field as the API takes it: `multiline` null for "not said"; C46: `step` null for the first. */
export type FieldInput = Omit<Field, 'multiline' | 'step' | 'capture'> & {
  multiline: boolean | null;
  step: number | null;
  capture: string | null;
};

/** C45: a text field that is not a list of choices: the one that may capture instead of asking. */
const mayCapture = (d: Draft) => d.type === 'string' && (d.rules.oneOf ?? '').trim() === '';

/**
 * A text field that is not a list of choices or of a format (an address, a date: one line): the
 * one whose control may take several lines.
 */
const takesLines = (d: Draft) =>
  d.type === 'string' && (d.rules.oneOf ?? '').trim() === '' && (d.rules.format ?? '') === '';

/**
 * The definition the API takes: numbers as numbers, lists as arrays, blanks left out; `multiline`
 * always said (null: as its maxLength says), so that a field made a list or a number loses it.
 */
export function toField(d: Draft): FieldInput {
  const rules: Record<string, unknown> = {};
  for (const rule of RULES_OF[d.type]) {
    const text = d.rules[rule]?.trim();
    if (text === undefined || text === '') continue;
    if (rule === 'oneOf' || rule === 'accept') rules[rule] = text.split(',').map((s) => s.trim());
    else if (rule === 'format' || rule === 'pattern' || rule === 'maxSize') rules[rule] = text;
    else rules[rule] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  return {
    name: d.name.trim(),
    type: d.type,
    required: d.required,
    ...(Object.keys(rules).length ? { rules } : {}),
    ...shownOf(d),
    multiline: !takesLines(d) || d.lines === 'auto' ? null : d.lines === 'several',
    // C46: always said, as a PUT without it keeps the step it had: emptied, it is the first again.
    // One not whole or past 20 is the server's to refuse, its sentence shown beside the field.
    step: d.step.trim() === '' ? null : Number(d.step),
    // C45: always said, as a definition without it has none: a field saved here keeps its capture.
    capture: mayCapture(d) && d.capture.trim() !== '' ? d.capture.trim() : null,
  };
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
/** `German (de)`: a language tag with its name in English, the dashboard's language. */
export function languageName(tag: string): string {
  try {
    const name = languageNames.of(tag);
    return name === undefined || name === tag ? tag : `${name} (${tag})`;
  } catch {
    return tag;
  }
}

/** C44: the field's label, help and placeholder in each language, folded away until wanted. */
function ShownEditor({
  draft,
  languages,
  onChange,
}: {
  draft: Draft;
  languages: readonly string[];
  onChange: (shows: Draft['shows']) => void;
}) {
  const filled = languages.filter((lang) => SHOWN.some((m) => (draft.shows[m][lang] ?? '').trim() !== ''));
  const set = (member: Shown, lang: string, text: string) =>
    onChange({ ...draft.shows, [member]: { ...draft.shows[member], [lang]: text } });
  const input = (member: Shown, lang: string) => ({
    lang,
    value: draft.shows[member][lang] ?? '',
    onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      set(member, lang, e.currentTarget.value),
  });
  return (
    <details class="shows">
      <summary>
        What the field shows{' '}
        <span class="muted">({filled.length ? filled.join(', ') : 'its name only'})</span>
      </summary>
      <p class="help">
        On the hosted page, in the visitor's language; the JSON Schema and the TypeScript types take the first
        language's. Left blank, the page shows the first language's, else another's, else the field's name.
      </p>
      {languages.map((lang) => (
        <fieldset key={lang}>
          <legend>{languageName(lang)}</legend>
          <div class="grid">
            <label>
              Label
              <input {...input('label', lang)} />
            </label>
            <label>
              Placeholder
              <input {...input('placeholder', lang)} />
            </label>
            <label>
              Help
              <textarea rows={2} {...input('help', lang)} />
            </label>
          </div>
        </fieldset>
      ))}
    </details>
  );
}

export function FieldEditor({
  draft,
  onChange,
  error,
  nameLocked = false,
  onRemove,
  languages = ['en'],
  children,
}: {
  draft: Draft;
  onChange: (d: Draft) => void;
  error?: string | undefined;
  nameLocked?: boolean;
  onRemove?: (() => void) | undefined;
  /** C44: the languages it shows its texts in: the page's (`en` for a project not made yet). */
  languages?: readonly string[] | undefined;
  /** What the screen adds before what the field shows (C45: "Show only when…"). */
  children?: ComponentChildren;
}) {
  const id = useId();
  const set = (patch: Partial<Draft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset class="field-editor" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{draft.name || 'New field'}</legend>
      <div class="grid">
        <label>
          Name
          <input
            value={draft.name}
            readOnly={nameLocked}
            required
            onInput={(e) => set({ name: e.currentTarget.value })}
            aria-invalid={error ? 'true' : undefined}
          />
        </label>
        <label>
          Type
          <select value={draft.type} onChange={(e) => set({ type: e.currentTarget.value as Field['type'] })}>
            {(['string', 'integer', 'number', 'boolean', 'file'] as const).map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={draft.required}
            onChange={(e) => set({ required: e.currentTarget.checked })}
          />
          Required
        </label>
        {RULES_OF[draft.type].map((rule) =>
          rule === 'format' ? (
            <label key={rule}>
              format
              <select
                value={draft.rules.format ?? ''}
                onChange={(e) => set({ rules: { ...draft.rules, format: e.currentTarget.value } })}
              >
                <option value="">any text</option>
                {FORMATS.map((f) => (
                  <option key={f}>{f}</option>
                ))}
              </select>
            </label>
          ) : (
            <label key={rule}>
              {rule}
              <input
                value={draft.rules[rule] ?? ''}
                placeholder={HINTS[rule]}
                onInput={(e) => set({ rules: { ...draft.rules, [rule]: e.currentTarget.value } })}
              />
            </label>
          ),
        )}
        {takesLines(draft) && (
          <label>
            Lines
            <select value={draft.lines} onChange={(e) => set({ lines: e.currentTarget.value as Lines })}>
              {(Object.keys(LINES) as Lines[]).map((l) => (
                <option key={l} value={l}>
                  {LINES[l]}
                </option>
              ))}
            </select>
          </label>
        )}
        {mayCapture(draft) && (
          <label>
            Hidden, filled from
            <input
              list={`${id}-captures`}
              value={draft.capture}
              placeholder="none: a person fills it"
              onInput={(e) => set({ capture: e.currentTarget.value })}
            />
            <datalist id={`${id}-captures`}>
              {[...CAPTURE_SOURCES, 'query:'].map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </label>
        )}
        <label>
          Step
          <input
            type="number"
            min={1}
            max={MAX_STEPS}
            step={1}
            placeholder="1, the first"
            value={draft.step}
            onInput={(e) => set({ step: e.currentTarget.value })}
          />
        </label>
      </div>
      {children}
      <ShownEditor draft={draft} languages={languages} onChange={(shows) => set({ shows })} />
      <SecretWarning field={{ name: draft.name, label: draft.shows.label }} />
      {error && (
        <p class="error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {onRemove && (
        <button type="button" class="link" onClick={onRemove}>
          Remove this field
        </button>
      )}
    </fieldset>
  );
}

/**
 * The field a server sentence names (`… in field 'email' …`; C45: `The condition of field 'vat' …`),
 * so it is shown beside that field.
 */
export function fieldNamed(message: string): string | undefined {
  return /(?:in field|Field|condition of field) '([^']+)'/.exec(message)?.[1];
}
