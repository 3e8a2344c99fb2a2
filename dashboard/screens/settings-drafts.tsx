// C46: partial submissions, in a project's Behaviour settings: whether its hosted page in steps
// keeps what a visitor typed as a draft, to continue later, and for how many days (1–90). Saved as
// `PATCH /projects/:id {"partials": …}`: off is `{"enabled": false}` alone, since the server
// refuses days given with partials off; the server's sentence shown when it refuses.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { screenPath } from '../session.ts';
import { act, Section } from '../ui.tsx';

/** C46: the most days a draft is kept, as the server checks them. */
const MAX_DAYS = 90;

/** Why a page keeps nothing yet with drafts on: it is off, or its fields are on one step. */
function idle(project: Project): string | undefined {
  if (!project.page.enabled)
    return 'The hosted page is off (the Page screen): nothing is kept until it is on.';
  if (!project.fields.some((f) => (f.step ?? 1) > 1))
    return 'Every field is on the first step: nothing is kept until a field is on a later step.';
  return undefined;
}

export function DraftsSettings({ project, reload }: { project: Project; reload: () => void }) {
  const partials = project.partials;
  const [enabled, setEnabled] = useState(partials.enabled);
  const [days, setDays] = useState(String(partials.keepDays));
  const save = (event: Event) => {
    event.preventDefault();
    const keepDays = days.trim();
    void act(
      async () => {
        await api('PATCH', projectPath(project.id), {
          partials: enabled
            ? { enabled: true, ...(keepDays === '' ? {} : { keepDays: Number(keepDays) }) }
            : { enabled: false },
        });
        reload();
      },
      enabled ? 'Drafts are kept' : 'Drafts are off',
    );
  };
  const waiting = partials.enabled ? idle(project) : undefined;
  return (
    <Section title="Drafts (partial submissions)" id="drafts">
      <p class="help">
        For a hosted page whose fields are on more than one step (a field's Step, in{' '}
        <a href={screenPath(project.id, 'settings', 'fields')}>Settings → Fields</a>). Before it keeps
        anything, the page tells the visitor so, in their language; after each step it keeps what they typed
        (never a file) and shows them a link to continue later, on any device. A draft is listed under the
        inbox's Drafts, never as a submission, and is erased when its days end or once it is sent.
      </p>
      {waiting && <p class="warning">{waiting}</p>}
      <form onSubmit={save} class="grid">
        <label class="check whole">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          Keep what a visitor typed on a page in steps as a draft, to continue later
        </label>
        <label>
          Days a draft is kept
          <input
            type="number"
            min="1"
            max={MAX_DAYS}
            step="1"
            required
            disabled={!enabled}
            value={days}
            onInput={(e) => setDays(e.currentTarget.value)}
          />
        </label>
        <div class="row">
          <button type="submit" class="primary">
            Save
          </button>
        </div>
      </form>
    </Section>
  );
}
