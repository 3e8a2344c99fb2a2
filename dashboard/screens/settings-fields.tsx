// C33: a project's fields in its settings: each shown with its rules, changed or removed, and one
// added, through the field editor (the same checks as the tool's field spec, C28), which shows
// their texts in the page's languages; C44: a field that looks like it asks for a secret is warned of.
// C45: each field's condition shown beside its rules, and made in its editor from the fields before it.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import {
  type Draft,
  draftOf,
  type Earlier,
  emptyDraft,
  FieldEditor,
  SecretWarning,
  toField,
  whenText,
} from '../fields.tsx';
import type { Project } from '../server-types.ts';
import { act, confirm, messageOf, Section, say } from '../ui.tsx';

export function Fields({ project, reload }: { project: Project; reload: () => void }) {
  const [editing, setEditing] = useState<Draft | undefined>();
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const save = async (draft: Draft, mode: 'add' | 'replace') => {
    setError(undefined);
    try {
      const { name, ...definition } = toField(draft);
      await api('PUT', projectPath(project.id, `/fields/${encodeURIComponent(name)}`), definition, {
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
          editing?.name === f.name ? (
            <li key={f.name}>
              <FieldEditor
                draft={editing}
                onChange={setEditing}
                error={error}
                nameLocked
                languages={project.page.languages}
                earlier={project.fields.slice(0, i)}
              />
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
                <button type="button" onClick={() => setEditing(draftOf(f, project.fields.slice(0, i)))}>
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
          onSave={(d) => void save(d, 'add')}
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
  onSave: (d: Draft) => void;
  onCancel: () => void;
  error?: string | undefined;
  languages: readonly string[];
  /** C45: a new field comes last: every field is before it. */
  earlier: readonly Earlier[];
}) {
  const [draft, setDraft] = useState(emptyDraft());
  return (
    <div>
      <FieldEditor draft={draft} onChange={setDraft} error={error} languages={languages} earlier={earlier} />
      <div class="row">
        <button type="button" class="primary" onClick={() => onSave(draft)}>
          Add the field
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
