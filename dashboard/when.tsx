// C45: "Show only when…", a field's condition as the dashboard edits it: one of the fields before
// it and a test of it (equals, is one of, is filled, is empty); a condition of another form, made
// with the tool or the API, shown as it is and sent back unchanged. Settings → Fields edits a
// field of a project; the Projects screen each field of a project being made after the first.
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import type { Condition } from '../src/fields/conditions.ts';
import type { Draft } from './fields.tsx';
import type { Project } from './server-types.ts';

/** What a condition's editor reads of a field before its own: its name, its type, its choices. */
type Earlier = {
  name: string;
  type: Project['fields'][number]['type'];
  rules?: { oneOf?: readonly string[] | undefined } | undefined;
  /** C46: the step of the hosted page it is on (none: the first). */
  step?: number | null | undefined;
};

/** A field being edited: its definition and when it applies. */
export type Editing = { draft: Draft; when: When };

const TESTS = { equals: 'equals', oneOf: 'is one of', filled: 'is filled', empty: 'is empty' } as const;
type Test = keyof typeof TESTS;

/**
 * C45: always; one test of one earlier field, its value as typed (with the field's type, so that
 * the value is sent as one); or a condition made elsewhere, kept as it is.
 */
type When =
  | { kind: 'always' }
  | { kind: 'test'; field: string; type: Earlier['type']; test: Test; value: string }
  | { kind: 'kept'; condition: Condition };

/** A value's text that `conditionOf` gives back the same (`oneOf`'s are split at commas and trimmed). */
const listable = (v: string | number | boolean) =>
  String(v) !== '' && String(v).trim() === String(v) && !String(v).includes(',');

/** C45: a condition as the editor shows it: one test when it is one the editor makes, else kept. */
export function whenOf(c: Condition | undefined, fields: readonly Earlier[]): When {
  if (c === undefined) return { kind: 'always' };
  if (!('field' in c)) return { kind: 'kept', condition: c };
  const sample = 'equals' in c ? c.equals : 'oneOf' in c ? c.oneOf[0] : undefined;
  const type: Earlier['type'] =
    fields.find((f) => f.name === c.field)?.type ??
    (typeof sample === 'boolean' ? 'boolean' : typeof sample === 'number' ? 'number' : 'string');
  const test = { kind: 'test' as const, field: c.field, type };
  if ('filled' in c) return { ...test, test: c.filled ? 'filled' : 'empty', value: '' };
  if ('equals' in c) return { ...test, test: 'equals', value: String(c.equals) };
  if (c.oneOf.every(listable)) return { ...test, test: 'oneOf', value: c.oneOf.join(', ') };
  return { kind: 'kept', condition: c };
}

/** A value typed for a field of `type`: a boolean's or a number's as one; else the text (the server says what is wrong). */
function typed(type: Earlier['type'], text: string): string | number | boolean {
  const t = text.trim();
  if (type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return type === 'string' ? text : t;
}

/** The tests a field of `type` takes: a file is filled or empty; a box is not one of several values. */
const testsOf = (type: Earlier['type']): Test[] =>
  (Object.keys(TESTS) as Test[]).filter((t) =>
    type === 'file' ? t === 'filled' || t === 'empty' : type !== 'boolean' || t !== 'oneOf',
  );

/**
 * A test of a field as that field is now: in a project being made, a field before it may be
 * retyped after the test was chosen, and its value is then sent as the new type's (a test it no
 * longer takes becomes its first).
 */
export function synced(when: When, earlier: readonly Earlier[]): When {
  const type = when.kind === 'test' ? earlier.find((f) => f.name === when.field)?.type : undefined;
  if (when.kind !== 'test' || type === undefined || type === when.type) return when;
  const tests = testsOf(type);
  return { ...when, type, test: tests.includes(when.test) ? when.test : (tests[0] ?? 'filled') };
}

/** C45: the condition the API takes, or null for none. */
export function conditionOf(when: When): Condition | null {
  if (when.kind !== 'test') return when.kind === 'kept' ? when.condition : null;
  const { field, type, test, value } = when;
  if (test === 'filled' || test === 'empty') return { field, filled: test === 'filled' };
  if (test === 'equals') return { field, equals: typed(type, value) };
  const values = value.split(',').flatMap((v) => (v.trim() === '' ? [] : [typed(type, v.trim())]));
  return { field, oneOf: values };
}

/** C45: a condition in a line: `business equals true`, `topic is one of a, b`, else its JSON. */
export function whenText(c: Condition): string {
  const when = whenOf(c, []);
  if (when.kind !== 'test') return JSON.stringify(c);
  return `${when.field} ${TESTS[when.test]}${when.value === '' ? '' : ` ${when.value}`}`;
}

/**
 * A list labelled by `for`, its label its name alone: a label around a list holds its choices'
 * text too, and these choices are other fields' names.
 */
function Picker(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <div class="picker">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.children}
      </select>
    </div>
  );
}

/** C45: the value a test compares with: a box's true or false, a list's choice, else typed. */
function ValueInput({
  when,
  on,
  onChange,
}: {
  when: When & { kind: 'test' };
  on: Earlier | undefined;
  onChange: (v: string) => void;
}) {
  const choices =
    when.type === 'boolean' ? ['true', 'false'] : when.test === 'equals' ? on?.rules?.oneOf : undefined;
  if (choices !== undefined) {
    return (
      <Picker label="Value" value={when.value} onChange={onChange}>
        {!choices.includes(when.value) && <option value={when.value}>{when.value || 'choose…'}</option>}
        {choices.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </Picker>
    );
  }
  const list = on?.rules?.oneOf ? `: ${on.rules.oneOf.join(', ')}` : '';
  const hint =
    when.test === 'oneOf' ? `comma-separated${list}` : when.type === 'string' ? 'the text' : 'a number';
  return (
    <label>
      {when.test === 'oneOf' ? 'Values' : 'Value'}
      <input value={when.value} placeholder={hint} onInput={(e) => onChange(e.currentTarget.value)} />
    </label>
  );
}

/** C45: "Show only when…": an earlier field and a test of it (none before it: nothing to show). */
export function WhenEditor({
  when: given,
  earlier,
  step = '',
  onChange,
}: {
  when: When;
  earlier: readonly Earlier[];
  /** C46: the step of the field being edited, as typed (blank: the first). */
  step?: string;
  onChange: (w: When) => void;
}) {
  const when = synced(given, earlier);
  // C46: a condition names fields on its own step or before: those are the ones offered.
  const offered = earlier.filter((f) => (f.step ?? 1) <= (Number(step) || 1));
  if (when.kind === 'kept') {
    return (
      <div class="when">
        <p>
          Show only when… <code>{JSON.stringify(when.condition)}</code>
        </p>
        <p class="help">
          A condition made with the tool or the API, which this editor does not make: kept as it is when the
          field is saved. Change it there (<kbd>forms field set … --when</kbd>).
        </p>
      </div>
    );
  }
  if (offered.length === 0 && when.kind !== 'test') return null;
  const pick = (name: string) => {
    const f = earlier.find((e) => e.name === name);
    if (f === undefined) return onChange({ kind: 'always' });
    const [test, value]: [Test, string] =
      f.type === 'file'
        ? ['filled', '']
        : ['equals', f.type === 'boolean' ? 'true' : (f.rules?.oneOf?.[0] ?? '')];
    onChange({ kind: 'test', field: name, type: f.type, test, value });
  };
  const tests = when.kind === 'test' ? testsOf(when.type) : [];
  return (
    <fieldset class="when">
      <legend>Show only when…</legend>
      <div class="grid">
        <Picker label="Field" value={when.kind === 'test' ? when.field : ''} onChange={pick}>
          <option value="">always shown</option>
          {offered.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
          {/* A field renamed or removed since, or now on a later step: shown for the server to refuse. */}
          {when.kind === 'test' && !offered.some((f) => f.name === when.field) && (
            <option>{when.field}</option>
          )}
        </Picker>
        {when.kind === 'test' && (
          <Picker label="Test" value={when.test} onChange={(t) => onChange({ ...when, test: t as Test })}>
            {tests.map((t) => (
              <option key={t} value={t}>
                {TESTS[t]}
              </option>
            ))}
          </Picker>
        )}
        {when.kind === 'test' && (when.test === 'equals' || when.test === 'oneOf') && (
          <ValueInput
            when={when}
            on={earlier.find((f) => f.name === when.field)}
            onChange={(value) => onChange({ ...when, value })}
          />
        )}
      </div>
      <p class="help">
        Until then the field is hidden on the hosted page and in the widget's forms, not required, and not
        stored if sent.
      </p>
    </fieldset>
  );
}
