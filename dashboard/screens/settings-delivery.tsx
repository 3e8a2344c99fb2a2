// C26, C35, C36: a project's deliveries in Settings: webhooks (signed, or a chat's: a secret
// or a chat hook's URL shown once) and the confirmation email to the submitter.
import { useState } from 'preact/hooks';
import { api, loadChannels, projectPath } from '../api.ts';
import type { Confirmation, Webhook } from '../server-types.ts';
import type { JobProps } from '../session.ts';
import { act, Choice, confirm, Section, ShownOnce, useLoad } from '../ui.tsx';

export function Webhooks({ projectId }: { projectId: string }) {
  const hooks = useLoad(
    () => api<{ webhooks: Webhook[] }>('GET', projectPath(projectId, '/webhooks')),
    [projectId],
  );
  const kinds = useLoad(loadChannels, []).data?.webhook ?? [];
  const channel = (k: string) => kinds.find((c) => c.kind === k);
  const [url, setUrl] = useState('');
  const [kind, setKind] = useState<Webhook['kind']>('webhook');
  const [secret, setSecret] = useState<string | undefined>();
  const path = (id: string, rest = '') =>
    projectPath(projectId, `/webhooks/${encodeURIComponent(id)}${rest}`);
  const remove = async (id: string) => {
    if (!(await confirm('Remove this webhook, and its deliveries?', 'Remove'))) return;
    await act(async () => {
      await api('DELETE', path(id));
      hooks.reload();
    }, 'Removed');
  };
  const test = (id: string) =>
    act(async () => {
      const answer = await api<{ status: number | null; error: string | null }>('POST', path(id, '/test'));
      if (answer.status === null || answer.status >= 300)
        throw new Error(`The test got ${answer.status ?? answer.error}`);
    }, 'The test was received');
  const rotate = (id: string) =>
    act(async () => setSecret((await api<{ secret: string }>('POST', path(id, '/rotate-secret'))).secret));
  const toggle = (w: Webhook) =>
    act(async () => {
      await api('PATCH', path(w.webhookId), { enabled: w.state !== 'active' });
      hooks.reload();
    });
  const add = (event: Event) => {
    event.preventDefault();
    void act(
      async () => {
        const added = await api<{ secret?: string }>('POST', projectPath(projectId, '/webhooks'), {
          url,
          kind,
        });
        // C36: a chat hook has no secret of ours: its URL is the secret, and is not shown again.
        setSecret(added.secret);
        setUrl('');
        hooks.reload();
      },
      channel(kind)?.signs === false ? 'Added: its URL is a secret, and is not shown again' : 'Added',
    );
  };
  return (
    <Section title="Webhooks">
      {secret && (
        <ShownOnce label="The webhook's signing secret" value={secret} onDone={() => setSecret(undefined)} />
      )}
      <ul class="plain">
        {hooks.data?.webhooks.map((w) => (
          <li key={w.webhookId} class="row spread">
            <span>
              {channel(w.kind)?.signs === false ? `${channel(w.kind)?.name}: ` : ''}
              {w.url} <span class={`state ${w.state}`}>{w.state}</span>
            </span>
            <span class="row">
              <button type="button" onClick={() => void test(w.webhookId)}>
                Test
              </button>
              {channel(w.kind)?.signs === true && (
                <button type="button" onClick={() => void rotate(w.webhookId)}>
                  Rotate the secret
                </button>
              )}
              <button type="button" onClick={() => void toggle(w)}>
                {w.state === 'active' ? 'Disable' : 'Enable'}
              </button>
              <button type="button" class="danger" onClick={() => void remove(w.webhookId)}>
                Remove
              </button>
            </span>
          </li>
        ))}
      </ul>
      <form class="row" onSubmit={add}>
        <Choice
          label="Kind"
          value={kind}
          options={kinds.map((k) => ({ value: k.kind, label: k.label }))}
          onChange={setKind}
        />
        <label>
          Webhook URL
          <input
            type="url"
            value={url}
            required
            placeholder={channel(kind)?.example}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Add</button>
      </form>
    </Section>
  );
}

/** C35: the confirmation email to the person who submits the form. */
export function ConfirmationSettings({ project, operator, reload }: JobProps) {
  const emailFields = project.fields
    .filter((f) => f.type === 'string' && f.rules?.format === 'email')
    .map((f) => f.name);
  const current = project.confirmation;
  const [values, setValues] = useState<Confirmation>(
    current ?? {
      field: emailFields[0] ?? '',
      subject: 'Thank you',
      body: 'Hello,\n\nThank you for your message. We will answer soon.\n',
      replyTo: '',
      open: false,
    },
  );
  const set = (patch: Partial<Confirmation>) => setValues({ ...values, ...patch });
  // A field given the email format after this screen opened (or one since removed) is not in the
  // state chosen then: the field is always one of those there are now.
  const field = emailFields.includes(values.field) ? values.field : (emailFields[0] ?? '');
  const path = projectPath(project.id);
  const save = (event: Event) => {
    event.preventDefault();
    const { open, ...rest } = values;
    void act(async () => {
      await api('PATCH', path, {
        confirmation: { ...rest, field, replyTo: rest.replyTo ?? '', ...(operator ? { open } : {}) },
      });
      reload();
    }, 'The confirmation is on');
  };
  const off = () =>
    act(async () => {
      await api('PATCH', path, { confirmation: null });
      reload();
    }, 'The confirmation is off');
  return (
    <Section title="Confirmation email">
      <p class="help">
        Each submitter who passed Turnstile gets this email at the address they gave: never for spam, one a
        day to a mailbox at most, and a few hundred a day from the project. Allowed origins protect nothing
        against a script, so only Turnstile lets it be sent: nobody can make the form mail strangers. What
        they typed is shown as plain text without links, and never in the subject. Sending to any address
        needs Cloudflare's Email Service.
      </p>
      {!project.turnstile && !current?.open && (
        <p class="warning">
          The project has no Turnstile secret: set one under Behaviour first
          {operator ? ', or open the confirmation to every submission (below)' : ''}.
        </p>
      )}
      {emailFields.length === 0 ? (
        <p>
          It needs the field that holds the submitter's address: give a string field the format “email” under
          Fields, above.
        </p>
      ) : (
        <form onSubmit={save} class="grid">
          <label>
            The submitter's address is in
            <select value={field} onChange={(e) => set({ field: e.currentTarget.value })}>
              {emailFields.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </label>
          <label>
            Subject ({'{{field}}'} only for a number, yes/no or choice)
            <input value={values.subject} required onInput={(e) => set({ subject: e.currentTarget.value })} />
          </label>
          <label>
            Reply-To (your address)
            <input
              type="email"
              value={values.replyTo ?? ''}
              required
              onInput={(e) => set({ replyTo: e.currentTarget.value })}
            />
          </label>
          <label>
            Body (plain text; {'{{field}}'} for a value)
            <textarea
              rows={6}
              value={values.body}
              required
              onInput={(e) => set({ body: e.currentTarget.value })}
            />
          </label>
          {operator && (
            <label class="check whole">
              <input
                type="checkbox"
                checked={values.open}
                onChange={(e) => set({ open: e.currentTarget.checked })}
              />
              Open: send it for submissions that passed no Turnstile challenge too (anyone could then make the
              form mail any address)
            </label>
          )}
          <div class="row">
            <button type="submit" class="primary">
              {current ? 'Save the confirmation' : 'Turn the confirmation on'}
            </button>
            {current && (
              <button type="button" onClick={() => void off()}>
                Turn it off
              </button>
            )}
          </div>
        </form>
      )}
    </Section>
  );
}
