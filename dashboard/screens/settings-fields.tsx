// C33: a project's fields in its settings: each shown with its rules, changed or removed, and one
// added, through the field editor (the same checks as the tool's field spec, C28), which shows
// their texts in the page's languages; C44: a field that looks like it asks for a secret is warned of.
// C45: "Show only when…" (dashboard/when.tsx) for a field after the first. C46: a field on a later
// step of the hosted page says which.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { draftOf, emptyDraft, FieldEditor, toField } from '../fields.tsx';
import { SecretWarning } from '../secret-warning.tsx';
import type { Project } from '../server-types.ts';
import { act, confirm, messageOf, Section, say } from '../ui.tsx';
import { conditionOf, type Editing, WhenEditor, whenOf, whenText } from '../when.tsx';

type Field = Project['fields'][number];

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
                  step={editing.draft.step}
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
                {f.capture && <span class="muted"> · hidden, filled from {f.capture}</span>}
                {f.step !== undefined && f.step !== null && f.step > 1 && (
                  <span class="muted"> · step {f.step}</span>
                )}
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
          step={adding.draft.step}
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
