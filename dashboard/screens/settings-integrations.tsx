// C38: a project's integrations in Settings (the integration channels, as `/admin/channels.json`
// lists them), each added with its secret (never shown again but by its last four characters),
// tested, removed. The form of each kind is its channel's fields.
import { useState } from 'preact/hooks';
import { api, loadChannels, projectPath } from '../api.ts';
import type { Channels, Integration } from '../server-types.ts';
import { act, Choice, confirm, Section, useLoad } from '../ui.tsx';

type Values = Record<string, string>;
type Service = Channels['integration'][number];

/** Where an integration writes, in its channel's words. */
const destination = (i: Integration, choice: Service | undefined) =>
  (choice?.writesTo ?? i.kind).replace(/\{(\w+)\}/g, (_, name: string) => i.settings[name] ?? '');

/** The body of an addition: the kind's settings, and its secret (a JSON key as the object it holds). */
function bodyOf(choice: Service, values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: choice.kind };
  for (const input of choice.inputs) {
    const value = values[input.key] || input.fallback || '';
    if (input.secret !== 'json') body[input.key] = value;
    else {
      try {
        body[input.key] = JSON.parse(value);
      } catch {
        throw new Error(`${input.label} is not JSON: paste the file as it was made`);
      }
    }
  }
  return body;
}

function Input({
  input,
  value,
  set,
}: {
  input: Service['inputs'][number];
  value: string;
  set: (v: string) => void;
}) {
  const onInput = (e: { currentTarget: { value: string } }) => set(e.currentTarget.value);
  if (input.secret === 'json') {
    return (
      <label class="whole">
        {input.label}
        <textarea rows={4} value={value} required spellcheck={false} autocomplete="off" onInput={onInput} />
      </label>
    );
  }
  return (
    <label>
      {input.label}
      <input
        {...(input.secret === 'token' ? { type: 'password', autocomplete: 'off' } : {})}
        value={value}
        required={input.fallback === undefined}
        {...(input.fallback === undefined ? {} : { placeholder: input.fallback })}
        onInput={onInput}
      />
    </label>
  );
}

export function Integrations({ projectId }: { projectId: string }) {
  const list = useLoad(
    () => api<{ integrations: Integration[] }>('GET', projectPath(projectId, '/integrations')),
    [projectId],
  );
  const channels = useLoad(loadChannels, []).data;
  const [kind, setKind] = useState<string | undefined>();
  const [values, setValues] = useState<Values>({});
  const choices = channels?.integration ?? [];
  const about = choices.find((k) => k.kind === kind) ?? choices[0];
  const path = (id: string, rest = '') =>
    projectPath(projectId, `/integrations/${encodeURIComponent(id)}${rest}`);
  const test = (id: string) =>
    act(async () => {
      const answer = await api<{ ok: boolean; status: number | null; error: string | null }>(
        'POST',
        path(id, '/test'),
      );
      if (!answer.ok) throw new Error(`The service refused the test: ${answer.status ?? answer.error}`);
    }, 'The test was sent: look for it there');
  const toggle = (i: Integration) =>
    act(async () => {
      await api('PATCH', path(i.integrationId), { enabled: i.state !== 'active' });
      list.reload();
    });
  const remove = async (id: string) => {
    if (!(await confirm('Remove this integration, and its deliveries?', 'Remove'))) return;
    await act(async () => {
      await api('DELETE', path(id));
      list.reload();
    }, 'Removed');
  };
  const add = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      if (about === undefined) return;
      await api('POST', projectPath(projectId, '/integrations'), bodyOf(about, values));
      // The secret leaves the page with the form: it is never shown again.
      setValues({});
      list.reload();
    }, 'Added: its secret is kept, and not shown again');
  };
  return (
    <Section title="Integrations">
      <p class="help">
        Every accepted submission is also written to these, with the same retries and log as webhooks (see
        Deliveries). A service that refuses the secret or the destination turns its integration off: fix its
        access, enable it again, and redeliver the failed deliveries from Deliveries.
      </p>
      <ul class="plain">
        {list.data?.integrations.map((i) => (
          <li key={i.integrationId} class="row spread">
            <span>
              {choices.find((k) => k.kind === i.kind)?.name ?? i.kind}:{' '}
              {destination(
                i,
                choices.find((k) => k.kind === i.kind),
              )}{' '}
              · secret {i.secret}
              {i.serviceAccount && <> · shared with {i.serviceAccount}</>}{' '}
              <span class={`state ${i.state}`}>{i.state}</span>
            </span>
            <span class="row">
              <button type="button" onClick={() => void test(i.integrationId)}>
                Test
              </button>
              <button type="button" onClick={() => void toggle(i)}>
                {i.state === 'active' ? 'Disable' : 'Enable'}
              </button>
              <button type="button" class="danger" onClick={() => void remove(i.integrationId)}>
                Remove
              </button>
            </span>
          </li>
        ))}
      </ul>
      <form class="grid" onSubmit={add} aria-label="Add an integration">
        <Choice
          label="Service"
          value={about?.kind}
          options={choices.map((k) => ({ value: k.kind, label: k.name }))}
          onChange={(next) => {
            setKind(next);
            setValues({});
          }}
        />
        <p class="help whole">{about?.help}</p>
        {about?.inputs.map((input) => (
          <Input
            key={`${about.kind} ${input.key}`}
            input={input}
            value={values[input.key] ?? ''}
            set={(value) => setValues({ ...values, [input.key]: value })}
          />
        ))}
        <div class="row whole">
          <button type="submit" class="primary">
            Add {about?.name}
          </button>
        </div>
      </form>
    </Section>
  );
}
