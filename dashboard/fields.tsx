// A field's definition as a form (C28, C30): its name, type, whether it is required, and the rules
// its type takes. The server checks it as the tool checks a field spec; its sentence is shown next
// to the field it names.
import { useId } from 'preact/hooks';
import { FORMATS, RULES_OF } from '../src/fields/catalogue.ts';
import type { Field, FieldRules } from './embed.ts';

export type Draft = {
  name: string;
  type: Field['type'];
  required: boolean;
  /** Each rule as typed: text, turned into JSON by `toField`. */
  rules: Partial<Record<keyof FieldRules, string>>;
};

const HINTS: Record<keyof FieldRules, string> = {
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

export const emptyDraft = (): Draft => ({ name: '', type: 'string', required: false, rules: {} });

export function draftOf(f: Field): Draft {
  const rules: Draft['rules'] = {};
  for (const [k, v] of Object.entries(f.rules ?? {}) as [keyof FieldRules, unknown][]) {
    rules[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return { name: f.name, type: f.type, required: f.required, rules };
}

/** The definition the API takes: numbers as numbers, lists as arrays, blanks left out. */
export function toField(d: Draft): Field {
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
  };
}

export function FieldEditor({
  draft,
  onChange,
  error,
  nameLocked = false,
  onRemove,
}: {
  draft: Draft;
  onChange: (d: Draft) => void;
  error?: string | undefined;
  nameLocked?: boolean;
  onRemove?: (() => void) | undefined;
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
      </div>
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

/** The field a server sentence names (`… in field 'email' …`), so it is shown beside that field. */
export function fieldNamed(message: string): string | undefined {
  return /(?:in field|Field) '([^']+)'/.exec(message)?.[1];
}
