// C33: the two settings that are lists of text: a project's allowed origins (Access) and its email
// recipients (Delivery), each entry with its remove button and an input to add one.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { act, Section, useLoad } from '../ui.tsx';

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
            <button
              type="button"
              class="danger"
              aria-label={`Remove ${i.text}`}
              onClick={() => void act(() => onRemove(i.id), 'Removed')}
            >
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

/** C15: the pages allowed to post with the publishable key. */
export function Origins({ project, reload }: { project: Project; reload: () => void }) {
  const projectId = project.id;
  return (
    <ListEditor
      title="Allowed origins"
      help="The sites whose pages may post with the publishable key; none listed: any site may."
      items={project.origins.map((o) => ({ id: o, text: o }))}
      label="Origin"
      placeholder="https://example.com"
      onAdd={async (origin) => {
        await api('POST', projectPath(projectId, '/origins'), { origin });
        reload();
      }}
      onRemove={async (origin) => {
        await api('DELETE', projectPath(projectId, `/origins/${encodeURIComponent(origin)}`));
        reload();
      }}
    />
  );
}

type Recipient = { notificationId: string; address: string; state: 'active' | 'waiting' | 'expired' };
/** C47: who sends the deployment's mail, as the API says it (never its key). */
type Sender = { provider: 'cloudflare' | 'resend' | 'postmark' | 'mailgun' | 'ses'; from: string | null };

const PROVIDER_NAMES: Record<Sender['provider'], string> = {
  cloudflare: "Cloudflare's send_email",
  resend: 'Resend',
  postmark: 'Postmark',
  mailgun: 'Mailgun',
  ses: 'Amazon SES',
};

/** C47: the line that says who sends, and from which address. */
const sentBy = (mail: Sender) =>
  `Mail is sent through ${PROVIDER_NAMES[mail.provider]}${mail.from === null ? ' (EMAIL_FROM is not set)' : `, from ${mail.from}`}.`;

/** C37: who is mailed each submission; an address the operator did not add waits for its owner's yes. */
export function EmailRecipients({ projectId, operator }: { projectId: string; operator: boolean }) {
  const emails = useLoad(
    () => api<{ notifications: Recipient[]; mail: Sender }>('GET', projectPath(projectId, '/notifications')),
    [projectId],
  );
  const mail = emails.data?.mail;
  const agree = operator
    ? undefined
    : 'An address you add gets one mail asking its owner to agree; nothing else is sent to it until they do (C37).';
  return (
    <ListEditor
      title="Email recipients"
      help={[mail === undefined ? undefined : sentBy(mail), agree].filter(Boolean).join(' ') || undefined}
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
  );
}
