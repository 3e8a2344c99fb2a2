// C41: where a project lives (its database and bucket), moving it to another place, and (C32, the
// operator only) deleting it. A move and a deletion each ask first, saying what they do.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Place, Project } from '../server-types.ts';
import { go, type JobProps } from '../session.ts';
import { act, Choice, confirm, Section, useLoad } from '../ui.tsx';

function Move({ project, reload }: { project: Project; reload: () => void }) {
  const places = useLoad(() => api<{ places: Place[] }>('GET', '/places'), []);
  const others = (places.data?.places ?? []).filter((p) => p.name !== project.place);
  const [to, setTo] = useState('');
  const target = to === '' ? others[0]?.name : to;
  if (places.error) return <p class="error">{places.error}</p>;
  if (!places.data) return null;
  if (target === undefined) {
    return (
      <p class="muted">
        This deployment has one place: a project can move once another is bound (docs/places.md).
      </p>
    );
  }
  const move = async (event: Event) => {
    event.preventDefault();
    const question = `Move “${project.name}” to '${target}'? Its submissions, files and settings are copied there, checked, then deleted here; submissions arriving meanwhile are asked to retry, and its keys and form address keep working.`;
    if (!(await confirm(question, `Move to ${target}`))) return;
    if (
      await act(() => api('POST', projectPath(project.id, '/move'), { to: target }), `Moved to '${target}'`)
    )
      reload();
  };
  return (
    <form class="row" onSubmit={move}>
      <Choice
        label="Move it to"
        value={target}
        options={others.map((p) => ({ value: p.name, label: p.name }))}
        onChange={setTo}
      />
      <button type="submit">Move</button>
    </form>
  );
}

export function PlaceSettings({ project, operator, reload }: JobProps) {
  const remove = async () => {
    const question = `Delete the project “${project.name}” with every submission and file? This cannot be undone.`;
    if (!(await confirm(question, 'Delete the project'))) return;
    if (await act(() => api('DELETE', projectPath(project.id)), 'Project deleted')) go('/');
  };
  return (
    <>
      <Section title="Where its data lives">
        <p>
          Its submissions, files and settings live in the place <strong>{project.place}</strong>: one database
          and its bucket. Nothing of it is kept anywhere else.
        </p>
        {operator ? (
          <Move project={project} reload={reload} />
        ) : (
          <p class="muted">Only the operator moves a project to another place.</p>
        )}
      </Section>
      {operator && (
        <Section title="Delete the project">
          <p>Every submission, file, key and target of the project goes with it; its audit log stays.</p>
          <button type="button" class="danger" onClick={() => void remove()}>
            Delete {project.name}
          </button>
        </Section>
      )}
    </>
  );
}
