// C38: a project's built-in integrations in Settings: Google Sheets, Notion, Airtable and Telegram,
// each added with its secret (never shown again but by its last four characters), tested, removed.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Integration } from '../server-types.ts';
import { act, confirm, Section, useLoad } from '../ui.tsx';

type Kind = Integration['kind'];

const KINDS: { kind: Kind; label: string; help: string }[] = [
  {
    kind: 'google-sheets',
    label: 'Google Sheets',
    help: "A row per submission. Make a service account in Google Cloud (with the Sheets API on), download its JSON key, and share the spreadsheet with the service account's address as an editor.",
  },
  {
    kind: 'notion',
    label: 'Notion',
    help: 'A page per submission in a database whose columns are named like your fields. Make an internal integration, copy its secret, and connect it to the database (••• → Connections).',
  },
  {
    kind: 'airtable',
    label: 'Airtable',
    help: 'A record per submission in a table whose fields are named like yours. Make a personal access token with data.records:write on the base.',
  },
  {
    kind: 'telegram',
    label: 'Telegram',
    help: "A message per submission. Make a bot with @BotFather, add it to the chat, and give the bot's token and the chat's id.",
  },
];

const destination = (i: Integration) => {
  const s = i.settings;
  if (i.kind === 'google-sheets') return `sheet “${s.sheet}” of ${s.spreadsheetId}`;
  if (i.kind === 'notion') return `database ${s.databaseId}`;
  if (i.kind === 'airtable') return `table “${s.table}” of ${s.baseId}`;
  return `chat ${s.chatId}`;
};

type Values = Record<string, string>;

/** The body of an addition: the kind's settings, and its secret. */
function bodyOf(kind: Kind, v: Values): Record<string, unknown> {
  if (kind === 'google-sheets') {
    let serviceAccount: unknown;
    try {
      serviceAccount = JSON.parse(v.key ?? '');
    } catch {
      throw new Error("The key is not JSON: paste the service account's key file as Google made it");
    }
    return { kind, spreadsheetId: v.spreadsheetId ?? '', sheet: v.sheet || 'Sheet1', serviceAccount };
  }
  if (kind === 'notion') return { kind, databaseId: v.databaseId ?? '', token: v.token ?? '' };
  if (kind === 'airtable')
    return { kind, baseId: v.baseId ?? '', table: v.table ?? '', token: v.token ?? '' };
  return { kind, chatId: v.chatId ?? '', botToken: v.token ?? '' };
}

export function Integrations({ projectId }: { projectId: string }) {
  const list = useLoad(
    () => api<{ integrations: Integration[] }>('GET', projectPath(projectId, '/integrations')),
    [projectId],
  );
  const [kind, setKind] = useState<Kind>('google-sheets');
  const [values, setValues] = useState<Values>({});
  const set = (name: string) => (e: { currentTarget: { value: string } }) =>
    setValues({ ...values, [name]: e.currentTarget.value });
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
      await api('POST', projectPath(projectId, '/integrations'), bodyOf(kind, values));
      // The secret leaves the page with the form: it is never shown again.
      setValues({});
      list.reload();
    }, 'Added: its secret is kept, and not shown again');
  };
  const about = KINDS.find((k) => k.kind === kind);
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
              {KINDS.find((k) => k.kind === i.kind)?.label}: {destination(i)} · secret {i.secret}
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
        <label>
          Service
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as Kind);
              setValues({});
            }}
          >
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <p class="help whole">{about?.help}</p>
        {kind === 'google-sheets' && (
          <>
            <label>
              Spreadsheet id (in its address: …/d/&lt;id&gt;/edit)
              <input value={values.spreadsheetId ?? ''} required onInput={set('spreadsheetId')} />
            </label>
            <label>
              Sheet (tab)
              <input value={values.sheet ?? ''} placeholder="Sheet1" onInput={set('sheet')} />
            </label>
            <label class="whole">
              The service account's JSON key
              <textarea
                rows={4}
                value={values.key ?? ''}
                required
                spellcheck={false}
                autocomplete="off"
                onInput={set('key')}
              />
            </label>
          </>
        )}
        {kind === 'notion' && (
          <label>
            Database id (the 32 characters in its link)
            <input value={values.databaseId ?? ''} required onInput={set('databaseId')} />
          </label>
        )}
        {kind === 'airtable' && (
          <>
            <label>
              Base id (app…)
              <input value={values.baseId ?? ''} required onInput={set('baseId')} />
            </label>
            <label>
              Table
              <input value={values.table ?? ''} required onInput={set('table')} />
            </label>
          </>
        )}
        {kind === 'telegram' && (
          <label>
            Chat id (a group's is negative) or @channel
            <input value={values.chatId ?? ''} required onInput={set('chatId')} />
          </label>
        )}
        {kind !== 'google-sheets' && (
          <label>
            {kind === 'telegram'
              ? 'Bot token'
              : kind === 'notion'
                ? 'Integration secret'
                : 'Personal access token'}
            <input
              type="password"
              value={values.token ?? ''}
              required
              autocomplete="off"
              onInput={set('token')}
            />
          </label>
        )}
        <div class="row whole">
          <button type="submit" class="primary">
            Add {about?.label}
          </button>
        </div>
      </form>
    </Section>
  );
}
