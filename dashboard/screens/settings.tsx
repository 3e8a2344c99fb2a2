// C33: a project's settings: fields, allowed origins, keys, webhooks, email recipients, retention,
// honeypot, Turnstile (write-only), thank-you page, the spam filter (C39); and, for the operator,
// deleting it. A key or a secret is shown once, with a copy button.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { type Draft, draftOf, emptyDraft, FieldEditor, toField } from '../fields.tsx';
import type { Project } from '../server-types.ts';
import { go, type ScreenProps } from '../session.ts';
import { act, confirm, messageOf, Section, useLoad } from '../ui.tsx';
import { ConfirmationSettings, Webhooks } from './settings-delivery.tsx';
import { Integrations } from './settings-integrations.tsx';
import { Keys } from './settings-keys.tsx';
import { SpamFilterSettings } from './settings-spam.tsx';

function Fields({ project, reload }: { project: Project; reload: () => void }) {
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
        {project.fields.map((f) =>
          editing?.name === f.name ? (
            <li key={f.name}>
              <FieldEditor draft={editing} onChange={setEditing} error={error} nameLocked />
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
              </span>
              <span class="row">
                <button type="button" onClick={() => setEditing(draftOf(f))}>
                  Change
                </button>
                <button type="button" class="danger" onClick={() => void remove(f.name)}>
                  Remove
                </button>
              </span>
            </li>
          ),
        )}
      </ul>
      {adding ? (
        <AddField onSave={(d) => void save(d, 'add')} onCancel={() => setAdding(false)} error={error} />
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
}: {
  onSave: (d: Draft) => void;
  onCancel: () => void;
  error?: string | undefined;
}) {
  const [draft, setDraft] = useState(emptyDraft());
  return (
    <div>
      <FieldEditor draft={draft} onChange={setDraft} error={error} />
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

/** A list with an input to add to it, each entry with its remove button. */
function ListEditor({
  title,
  help,
  items,
  label,
  placeholder,
  onAdd,
  onRemove,
}: {
  title: string;
  help?: string | undefined;
  /** `note`: what is to know of an entry beside it (an address waiting for its owner's agreement). */
  items: { id: string; text: string; note?: string | undefined }[];
  label: string;
  placeholder: string;
  onAdd: (text: string) => Promise<unknown>;
  onRemove: (id: string) => Promise<unknown>;
}) {
  const [text, setText] = useState('');
  return (
    <Section title={title}>
      {help && <p class="help">{help}</p>}
      <ul class="plain">
        {items.map((i) => (
          <li key={i.id} class="row spread">
            <span>
              {i.text}
              {i.note && <span class="state waiting"> {i.note}</span>}
            </span>
            <button type="button" class="danger" onClick={() => void act(() => onRemove(i.id), 'Removed')}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await onAdd(text);
            setText('');
          }, 'Added');
        }}
      >
        <label>
          {label}
          <input
            value={text}
            placeholder={placeholder}
            required
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Add</button>
      </form>
    </Section>
  );
}

function Behaviour({ project, reload }: { project: Project; reload: () => void }) {
  const [values, setValues] = useState({
    retentionDays: project.retentionDays === null ? '' : String(project.retentionDays),
    honeypot: project.honeypot ?? '',
    unknownFields: project.unknownFields,
    thankYouUrl: project.thankYouUrl ?? '',
    replyToField: project.replyToField ?? '',
    turnstileSecret: '',
  });
  const set = (patch: Partial<typeof values>) => setValues({ ...values, ...patch });
  const save = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
      await api('PATCH', projectPath(project.id), {
        retentionDays: values.retentionDays === '' ? null : Number(values.retentionDays),
        honeypot: orNull(values.honeypot),
        unknownFields: values.unknownFields,
        thankYouUrl: orNull(values.thankYouUrl),
        replyToField: orNull(values.replyToField),
        ...(values.turnstileSecret === '' ? {} : { turnstileSecret: values.turnstileSecret }),
      });
      set({ turnstileSecret: '' });
      reload();
    }, 'Saved');
  };
  return (
    <Section title="Behaviour">
      <form onSubmit={save} class="grid">
        <label>
          Keep submissions for (days; empty: until deleted)
          <input
            type="number"
            min="1"
            value={values.retentionDays}
            onInput={(e) => set({ retentionDays: e.currentTarget.value })}
          />
        </label>
        <label>
          Honeypot field (hidden; filled means spam)
          <input value={values.honeypot} onInput={(e) => set({ honeypot: e.currentTarget.value })} />
        </label>
        <label>
          Unknown fields
          <select
            value={values.unknownFields}
            onChange={(e) => set({ unknownFields: e.currentTarget.value as Project['unknownFields'] })}
          >
            <option value="reject">refuse the submission</option>
            <option value="discard">drop them</option>
          </select>
        </label>
        <label>
          Thank-you page (on an allowed origin)
          <input
            type="url"
            value={values.thankYouUrl}
            onInput={(e) => set({ thankYouUrl: e.currentTarget.value })}
          />
        </label>
        <label>
          Reply-To of notification emails (a field)
          <input value={values.replyToField} onInput={(e) => set({ replyToField: e.currentTarget.value })} />
        </label>
        <label>
          Turnstile secret ({project.turnstile ? 'set; type a new one to replace it' : 'not set'})
          <input
            type="password"
            autocomplete="off"
            value={values.turnstileSecret}
            onInput={(e) => set({ turnstileSecret: e.currentTarget.value })}
          />
        </label>
        <div class="row">
          <button type="submit" class="primary">
            Save
          </button>
          {project.turnstile && (
            <button
              type="button"
              onClick={() =>
                void act(async () => {
                  await api('PATCH', projectPath(project.id), { turnstileSecret: null });
                  reload();
                }, 'Turnstile is off')
              }
            >
              Remove the Turnstile secret
            </button>
          )}
        </div>
      </form>
    </Section>
  );
}

export function SettingsScreen({ projectId, session }: ScreenProps) {
  const loaded = useLoad(() => api<{ project: Project }>('GET', projectPath(projectId)), [projectId]);
  const emails = useLoad(
    () =>
      api<{
        notifications: { notificationId: string; address: string; state: 'active' | 'waiting' | 'expired' }[];
      }>('GET', projectPath(projectId, '/notifications')),
    [projectId],
  );
  const project = loaded.data?.project;
  if (loaded.error) return <p class="error">{loaded.error}</p>;
  if (!project) return <p class="loading">Loading…</p>;
  const remove = async () => {
    if (
      !(await confirm(
        `Delete the project “${project.name}” with every submission and file? This cannot be undone.`,
        'Delete the project',
      ))
    )
      return;
    if (await act(() => api('DELETE', projectPath(projectId)), 'Project deleted')) go('/');
  };
  return (
    <>
      <h1>Settings of {project.name}</h1>
      <p class="muted">
        Its data lives in the place <strong>{project.place}</strong> (its database and bucket).
      </p>
      <Fields project={project} reload={loaded.reload} />
      <ListEditor
        title="Allowed origins"
        items={project.origins.map((o) => ({ id: o, text: o }))}
        label="Origin"
        placeholder="https://example.com"
        onAdd={async (origin) => {
          await api('POST', projectPath(projectId, '/origins'), { origin });
          loaded.reload();
        }}
        onRemove={async (origin) => {
          await api('DELETE', projectPath(projectId, `/origins/${encodeURIComponent(origin)}`));
          loaded.reload();
        }}
      />
      <Keys project={project} reload={loaded.reload} />
      <Webhooks projectId={projectId} />
      <Integrations projectId={projectId} />
      <ListEditor
        title="Email recipients"
        help={
          session.projectId === null
            ? undefined
            : 'An address you add gets one mail asking its owner to agree; nothing else is sent to it until they do (C37).'
        }
        items={(emails.data?.notifications ?? []).map((n) => ({
          id: n.notificationId,
          text: n.address,
          note:
            n.state === 'waiting'
              ? 'waiting for its owner to agree (a mail with a link was sent)'
              : n.state === 'expired'
                ? 'its link expired: remove it and add it again'
                : undefined,
        }))}
        label="Address"
        placeholder="owner@example.com"
        onAdd={async (address) => {
          await api('POST', projectPath(projectId, '/notifications'), { address });
          emails.reload();
        }}
        onRemove={async (id) => {
          await api('DELETE', projectPath(projectId, `/notifications/${encodeURIComponent(id)}`));
          emails.reload();
        }}
      />
      <ConfirmationSettings
        key={`confirm-${JSON.stringify(project.confirmation)}`}
        project={project}
        operator={session.projectId === null}
        reload={loaded.reload}
      />
      {/* Made anew when a setting it shows changes, not when an origin, a key or a field does: typing survives those. */}
      <Behaviour
        key={JSON.stringify([
          project.retentionDays,
          project.honeypot,
          project.unknownFields,
          project.thankYouUrl,
          project.replyToField,
          project.turnstile,
        ])}
        project={project}
        reload={loaded.reload}
      />
      <SpamFilterSettings project={project} reload={loaded.reload} />
      {session.projectId === null && (
        <Section title="Delete the project">
          <button type="button" class="danger" onClick={() => void remove()}>
            Delete {project.name}
          </button>
        </Section>
      )}
    </>
  );
}
