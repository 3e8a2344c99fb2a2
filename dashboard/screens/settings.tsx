// C33: a project's settings: fields, allowed origins, keys, webhooks, email recipients, retention,
// honeypot, Turnstile (write-only), thank-you page, the spam filter (C39); and, for the operator,
// deleting it. A key or a secret is shown once, with a copy button. Each section is a module of
// its own (settings-*.tsx) but the two lists, origins and email recipients.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { go, type ScreenProps } from '../session.ts';
import { act, confirm, Section, useLoad } from '../ui.tsx';
import { Behaviour } from './settings-behaviour.tsx';
import { ConfirmationSettings, Webhooks } from './settings-delivery.tsx';
import { Fields } from './settings-fields.tsx';
import { Integrations } from './settings-integrations.tsx';
import { Keys } from './settings-keys.tsx';
import { SpamFilterSettings } from './settings-spam.tsx';

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
