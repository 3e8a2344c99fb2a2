// C33: a project's fields in its settings: each shown with its rules, changed or removed, and one
// added, through the field editor (the same checks as the tool's field spec, C28), which shows
// their texts in the page's languages; C44: a field that looks like it asks for a secret is warned of.
// C45: "Show only when…" for a field after the first: a field before it and a test of it; another
// condition, made with the tool or the API, shown as it is and sent back unchanged.
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import type { Condition } from '../../src/fields/conditions.ts';
import { api, projectPath } from '../api.ts';
import { type Draft, draftOf, emptyDraft, FieldEditor, SecretWarning, toField } from '../fields.tsx';
import type { Project } from '../server-types.ts';
import { act, confirm, messageOf, Section, say } from '../ui.tsx';

type Field = Project['fields'][number];
/** A field being edited: its definition and when it applies. */
type Editing = { draft: Draft; when: When };

export function Fields({ project, reload }: { project: Project; reload: () => void }) {
  const [editing, setEditing] = useState<Editing | undefined>();
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const save = async ({ draft, when }: Editing, mode: 'add' | 'replace') => {
    setError(undefined);
    try {
      const { name, ...definition } = toField(draft);
      // C45: always said, as a PUT's definition without it has none: null, or the condition.
      const body = { ...definition, when: conditionOf(when) };
      await api('PUT', projectPath(project.id, `/fields/${encodeURIComponent(name)}`), body, {
        [mode === 'add' ? 'If-None-Match' : 'If-Match']: '*',
      });
      setEditing(undefined);
      setAdding(false);
      reload();
      say(mode === 'add' ? `Added ${name}` : `Saved ${name}`);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const remove = async (name: string) => {
    if (
      !(await confirm(
        `Remove the field “${name}”? Submissions already stored keep their values of it; new ones may no longer send it.`,
        'Remove',
      ))
    )
      return;
    await act(async () => {
      await api('DELETE', projectPath(project.id, `/fields/${encodeURIComponent(name)}`));
      reload();
    }, `Removed ${name}`);
  };
  return (
    <Section title="Fields">
      <ul class="plain">
        {project.fields.map((f, i) =>
          editing?.draft.name === f.name ? (
            <li key={f.name}>
              <FieldEditor
                draft={editing.draft}
                onChange={(draft) => setEditing({ ...editing, draft })}
                error={error}
                nameLocked
                languages={project.page.languages}
              >
                <WhenEditor
                  when={editing.when}
                  earlier={project.fields.slice(0, i)}
                  onChange={(when) => setEditing({ ...editing, when })}
                />
              </FieldEditor>
              <div class="row">
                <button type="button" class="primary" onClick={() => void save(editing, 'replace')}>
                  Save {f.name}
                </button>
                <button type="button" onClick={() => setEditing(undefined)}>
                  Cancel
                </button>
              </div>
            </li>
          ) : (
            <li key={f.name} class="row spread">
              <span>
                <strong>{f.name}</strong> {f.type}
                {f.required && ' · required'}
                {f.rules && (
                  <span class="muted">
                    {' · '}
                    {Object.entries(f.rules)
                      .map(([rule, value]) => `${rule} ${Array.isArray(value) ? value.join(', ') : value}`)
                      .join(' · ')}
                  </span>
                )}
                {f.when && <span class="muted"> · shown only when {whenText(f.when)}</span>}
              </span>
              <span class="row">
                <button
                  type="button"
                  onClick={() => setEditing({ draft: draftOf(f), when: whenOf(f.when, project.fields) })}
                >
                  Change
                </button>
                <button type="button" class="danger" onClick={() => void remove(f.name)}>
                  Remove
                </button>
              </span>
              <SecretWarning field={f} />
            </li>
          ),
        )}
      </ul>
      {adding ? (
        <AddField
          onSave={(e) => void save(e, 'add')}
          onCancel={() => setAdding(false)}
          error={error}
          languages={project.page.languages}
          earlier={project.fields}
        />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          Add a field
        </button>
      )}
    </Section>
  );
}

function AddField({
  onSave,
  onCancel,
  error,
  languages,
  earlier,
}: {
  onSave: (e: Editing) => void;
  onCancel: () => void;
  error?: string | undefined;
  languages: readonly string[];
  /** C45: a new field comes last: every field is before it. */
  earlier: readonly Field[];
}) {
  const [adding, setAdding] = useState<Editing>({ draft: emptyDraft(), when: { kind: 'always' } });
  return (
    <div>
      <FieldEditor
        draft={adding.draft}
        onChange={(draft) => setAdding({ ...adding, draft })}
        error={error}
        languages={languages}
      >
        <WhenEditor
          when={adding.when}
          earlier={earlier}
          onChange={(when) => setAdding({ ...adding, when })}
        />
      </FieldEditor>
      <div class="row">
        <button type="button" class="primary" onClick={() => onSave(adding)}>
          Add the field
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

const TESTS = { equals: 'equals', oneOf: 'is one of', filled: 'is filled', empty: 'is empty' } as const;
type Test = keyof typeof TESTS;

/**
 * C45: always; one test of one earlier field, its value as typed (with the field's type, so that
 * the value is sent as one); or a condition made elsewhere, kept as it is.
 */
type When =
  | { kind: 'always' }
  | { kind: 'test'; field: string; type: Field['type']; test: Test; value: string }
  | { kind: 'kept'; condition: Condition };

/** A value's text that `conditionOf` gives back the same (`oneOf`'s are split at commas and trimmed). */
const listable = (v: string | number | boolean) =>
  String(v) !== '' && String(v).trim() === String(v) && !String(v).includes(',');

/** C45: a condition as the editor shows it: one test when it is one the editor makes, else kept. */
function whenOf(c: Condition | undefined, fields: readonly Field[]): When {
  if (c === undefined) return { kind: 'always' };
  if (!('field' in c)) return { kind: 'kept', condition: c };
  const sample = 'equals' in c ? c.equals : 'oneOf' in c ? c.oneOf[0] : undefined;
  const type: Field['type'] =
    fields.find((f) => f.name === c.field)?.type ??
    (typeof sample === 'boolean' ? 'boolean' : typeof sample === 'number' ? 'number' : 'string');
  const test = { kind: 'test' as const, field: c.field, type };
  if ('filled' in c) return { ...test, test: c.filled ? 'filled' : 'empty', value: '' };
  if ('equals' in c) return { ...test, test: 'equals', value: String(c.equals) };
  if (c.oneOf.every(listable)) return { ...test, test: 'oneOf', value: c.oneOf.join(', ') };
  return { kind: 'kept', condition: c };
}

/** A value typed for a field of `type`: a boolean's or a number's as one; else the text (the server says what is wrong). */
function typed(type: Field['type'], text: string): string | number | boolean {
  const t = text.trim();
  if (type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return type === 'string' ? text : t;
}

/** C45: the condition the API takes, or null for none. */
function conditionOf(when: When): Condition | null {
  if (when.kind !== 'test') return when.kind === 'kept' ? when.condition : null;
  const { field, type, test, value } = when;
  if (test === 'filled' || test === 'empty') return { field, filled: test === 'filled' };
  if (test === 'equals') return { field, equals: typed(type, value) };
  const values = value.split(',').flatMap((v) => (v.trim() === '' ? [] : [typed(type, v.trim())]));
  return { field, oneOf: values };
}

/** C45: a condition in a line: `business equals true`, `topic is one of a, b`, else its JSON. */
function whenText(c: Condition): string {
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
  on: Field | undefined;
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
function WhenEditor({
  when,
  earlier,
  onChange,
}: {
  when: When;
  earlier: readonly Field[];
  onChange: (w: When) => void;
}) {
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
  if (earlier.length === 0) return null;
  const pick = (name: string) => {
    const f = earlier.find((e) => e.name === name);
    if (f === undefined) return onChange({ kind: 'always' });
    const [test, value]: [Test, string] =
      f.type === 'file'
        ? ['filled', '']
        : ['equals', f.type === 'boolean' ? 'true' : (f.rules?.oneOf?.[0] ?? '')];
    onChange({ kind: 'test', field: name, type: f.type, test, value });
  };
  // A file is filled or empty; a box is not one of several values.
  const type = when.kind === 'test' ? when.type : undefined;
  const tests = (Object.keys(TESTS) as Test[]).filter((t) =>
    type === 'file' ? t === 'filled' || t === 'empty' : type !== 'boolean' || t !== 'oneOf',
  );
  return (
    <fieldset class="when">
      <legend>Show only when…</legend>
      <div class="grid">
        <Picker label="Field" value={when.kind === 'test' ? when.field : ''} onChange={pick}>
          <option value="">always shown</option>
          {earlier.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
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
