// C33: every project, with its unread count, its last submission and its last 30 days; and a new
// project, its fields checked by the server as the tool checks them; C45: a field after the first
// with its "Show only when…" (dashboard/when.tsx), sent as its `when`.
import { useState } from 'preact/hooks';
import { api, Problem, projectPath } from '../api.ts';
import { Sparkline } from '../chart.tsx';
import { emptyDraft, FieldEditor, fieldNamed, toField } from '../fields.tsx';
import type { Day, Place, ProjectSummary, Session } from '../server-types.ts';
import { go, screenPath } from '../session.ts';
import { Choice, messageOf, plural, ShownOnce, Time, useLoad } from '../ui.tsx';
import { conditionOf, type Editing, synced, WhenEditor } from '../when.tsx';

type Summary = ProjectSummary;

function Card({ project }: { project: Summary }) {
  const stats = useLoad(
    () => api<{ days: Day[] }>('GET', projectPath(project.id, '/stats?days=30')),
    [project.id],
  );
  const total = stats.data?.days.reduce((n, d) => n + d.accepted, 0);
  return (
    <li class="card">
      <h2>
        <a href={screenPath(project.id, 'inbox')}>{project.name}</a>
      </h2>
      <p>
        <strong class={project.unread > 0 ? 'badge' : undefined}>{project.unread} unread</strong> of{' '}
        {plural(project.submissions, 'submission')}
      </p>
      <p class="muted">
        Last: <Time iso={project.lastReceivedAt} /> · data in <strong>{project.place}</strong>
      </p>
      {stats.data && (
        <>
          <Sparkline days={stats.data.days} count={30} />
          <p class="sr-only">{plural(total ?? 0, 'submission')} accepted in the last 30 days</p>
        </>
      )}
    </li>
  );
}

function NewProject({ onCreated, places }: { onCreated: () => void; places: Place[] }) {
  const [name, setName] = useState('');
  const [region, setRegion] = useState('default');
  const [drafts, setDrafts] = useState<Editing[]>([
    { draft: { ...emptyDraft(), name: 'email', rules: { format: 'email' } }, when: { kind: 'always' } },
  ]);
  const set = (i: number, patch: Partial<Editing>) =>
    setDrafts(drafts.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  // C45: the fields before a field, as they are now (a field not named yet is none).
  const before = (i: number) =>
    drafts
      .slice(0, i)
      .map((x) => toField(x.draft))
      .filter((f) => f.name !== '');
  // The first field has none before it: a condition left from a field removed since is not sent.
  const fieldOf = ({ draft, when }: Editing, i: number) => {
    const condition = i === 0 ? null : conditionOf(synced(when, before(i)));
    return { ...toField(draft), ...(condition === null ? {} : { when: condition }) };
  };
  const [error, setError] = useState<{ field?: string | undefined; text: string } | undefined>();
  const [created, setCreated] = useState<{ projectId: string; apiKey: string } | undefined>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const done = await api<{ projectId: string; apiKey: string }>('POST', '/projects', {
        name,
        fields: drafts.map(fieldOf),
        ...(region === 'default' ? {} : { region }),
      });
      setCreated(done);
      onCreated();
    } catch (e) {
      const text = messageOf(e);
      setError({ field: e instanceof Problem ? fieldNamed(text) : undefined, text });
    }
  };
  if (created) {
    return (
      <div>
        <ShownOnce
          label="The project's publishable key"
          value={created.apiKey}
          onDone={() => go(screenPath(created.projectId, 'embed'))}
        />
      </div>
    );
  }
  return (
    <form onSubmit={submit} class="new-project" aria-labelledby="new-project">
      <h2 id="new-project">New project</h2>
      <label>
        Name
        <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      {places.length > 1 && (
        <Choice
          label="Where its data lives"
          value={region}
          options={places.map((p) => ({ value: p.name, label: p.name }))}
          onChange={setRegion}
        />
      )}
      {drafts.map(({ draft, when }, i) => (
        <FieldEditor
          key={i}
          draft={draft}
          onChange={(next) => set(i, { draft: next })}
          error={error?.field !== undefined && error.field === draft.name ? error.text : undefined}
          onRemove={drafts.length > 1 ? () => setDrafts(drafts.filter((_, j) => j !== i)) : undefined}
        >
          {i > 0 && (
            <WhenEditor
              when={when}
              earlier={before(i)}
              step={draft.step}
              onChange={(next) => set(i, { when: next })}
            />
          )}
        </FieldEditor>
      ))}
      {error && error.field === undefined && (
        <p class="error" role="alert">
          {error.text}
        </p>
      )}
      <div class="row">
        <button
          type="button"
          onClick={() => setDrafts([...drafts, { draft: emptyDraft(), when: { kind: 'always' } }])}
        >
          Add a field
        </button>
        <button type="submit" class="primary">
          Create the project
        </button>
      </div>
    </form>
  );
}

export function ProjectsScreen({ session }: { session: Session }) {
  const operator = session.projectId === null;
  const projects = useLoad(() => api<{ projects: Summary[] }>('GET', '/projects'), []);
  // C41: the operator's places, for a new project's choice and each database's warning at 80%.
  const places = useLoad(
    (): Promise<{ places: Place[] }> =>
      operator ? api<{ places: Place[] }>('GET', '/places') : Promise.resolve({ places: [] }),
    [operator],
  );
  const warnings = places.data?.places.flatMap((p) => (p.warning === null ? [] : [p.warning])) ?? [];
  return (
    <>
      <h1>Projects</h1>
      {warnings.map((w) => (
        <p key={w} class="error" role="alert">
          {w}
        </p>
      ))}
      {projects.error && <p class="error">{projects.error}</p>}
      {projects.data && projects.data.projects.length === 0 && <p>No projects yet.</p>}
      <ul class="cards">
        {projects.data?.projects.map((p) => (
          <Card key={p.id} project={p} />
        ))}
      </ul>
      {operator && <NewProject onCreated={projects.reload} places={places.data?.places ?? []} />}
    </>
  );
}
