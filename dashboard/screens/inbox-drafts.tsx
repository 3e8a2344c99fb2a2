// C46: the inbox's Drafts: what visitors typed on a hosted page in steps and have not sent yet
// (`…/submissions?partial=only`, last saved first, a page at a time): each draft's values, the
// step it reached, when it was last saved and when it will be erased. A draft is no submission:
// it is not opened, read, starred, marked spam, deleted here or exported, so none of those is
// offered. The view is offered while the project keeps drafts, or while drafts it kept are left.
import { useEffect, useRef } from 'preact/hooks';
import { api, projectPath, query } from '../api.ts';
import type { Draft, Project } from '../server-types.ts';
import { screenPath } from '../session.ts';
import { act, Time, useLoad, usePages } from '../ui.tsx';

/** The inbox's two views: the submissions (with their filters) or the drafts. */
export type InboxView = 'submissions' | 'drafts';

const VIEWS = [
  ['submissions', 'Submissions'],
  ['drafts', 'Drafts'],
] as const;

/** C46: whether the inbox offers its Drafts: partials on, or a draft left from when they were. */
export function useDraftsOffered(projectId: string): boolean {
  const loaded = useLoad(async () => {
    const [{ project }, { submissions }] = await Promise.all([
      api<{ project: Project }>('GET', projectPath(projectId)),
      api<{ submissions: Draft[] }>(
        'GET',
        projectPath(projectId, `/submissions${query({ partial: 'only', limit: 1 })}`),
      ),
    ]);
    return project.partials.enabled || submissions.length > 0;
  }, [projectId]);
  return loaded.data === true;
}

/** Set by a switch's click: the other view's switch, which takes its place, takes the focus too. */
let switched = false;

/** Submissions or Drafts: two toggle buttons, the one shown pressed. */
export function ViewSwitch({ view, onView }: { view: InboxView; onView: (view: InboxView) => void }) {
  const pressed = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (switched) pressed.current?.focus();
    switched = false;
  }, []);
  const choose = (v: InboxView) => {
    if (v === view) return;
    switched = true;
    onView(v);
  };
  return (
    <fieldset class="views">
      <legend class="sr-only">Show</legend>
      {VIEWS.map(([v, label]) => (
        <button
          type="button"
          key={v}
          ref={v === view ? pressed : null}
          aria-pressed={v === view}
          onClick={() => choose(v)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}

/** One draft: the step it reached, its times, and every value it holds (text: a stranger typed it). */
function DraftItem({ draft }: { draft: Draft }) {
  const values = Object.entries(draft.fields);
  return (
    <li>
      <p class="draft-head">
        <strong>Step {draft.step} reached</strong>
        <span class="muted">
          Last saved <Time iso={draft.receivedAt} /> · erased <Time iso={draft.expiresAt} />
        </span>
      </p>
      {values.length === 0 ? (
        <p class="muted">Nothing typed yet.</p>
      ) : (
        <dl class="fields">
          {values.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** C46: the inbox showing its drafts, with the switch back to its submissions. */
export function DraftsInbox({ projectId, onView }: { projectId: string; onView: (view: InboxView) => void }) {
  const path = projectPath(projectId, '/submissions');
  const { rows, next, error, more } = usePages<Draft>(
    async (cursor) => {
      const page = await api<{ submissions: Draft[]; nextCursor?: string }>(
        'GET',
        `${path}${query({ partial: 'only', cursor })}`,
      );
      return { items: page.submissions, nextCursor: page.nextCursor };
    },
    [path],
  );
  return (
    <div class="inbox">
      <section class="list-pane" aria-label="Drafts">
        <h1 class="sr-only">Inbox: drafts</h1>
        <ViewSwitch view="drafts" onView={onView} />
        <p class="help">
          What visitors typed on the hosted page in steps and have not sent yet, last saved first. A draft is
          not a submission: it is not delivered, judged or exported. Sent, it becomes one and leaves this
          list; else it is erased when its days end (
          <a href={screenPath(projectId, 'settings', 'behaviour')}>Settings → Behaviour</a>).
        </p>
        {error && <p class="error">{error}</p>}
        {rows.length === 0 && !error && <p class="muted">No drafts.</p>}
        <ul class="drafts">
          {rows.map((d) => (
            <DraftItem key={d.id} draft={d} />
          ))}
        </ul>
        {next && (
          <button type="button" onClick={() => void act(more)}>
            Load more
          </button>
        )}
      </section>
    </div>
  );
}
