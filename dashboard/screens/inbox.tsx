// C33, C34: a project's inbox: newest first, unread in bold and read once opened; a search and
// filters (the spam filter's verdict among them, C39); many selected at once and changed or
// deleted; exactly what is filtered exported; one opened beside the list. Keys: j/k move, o or
// Enter open, s star, # delete, / search, x select. C46: its Drafts, while the project keeps them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, projectPath, query } from '../api.ts';
import { go, type ScreenProps, screenPath } from '../session.ts';
import { act, confirm, plural, Time, usePages } from '../ui.tsx';
import { DraftsInbox, type InboxView, useDraftsOffered, ViewSwitch } from './inbox-drafts.tsx';
import { Detail, reasonText, type Submission } from './submission.tsx';

type Filters = {
  q: string;
  read?: boolean | undefined;
  starred?: boolean | undefined;
  spam: 'exclude' | 'include' | 'only';
  files?: boolean | undefined;
  /** C39: the spam filter's verdict; '' for any. */
  verdict: '' | Exclude<Submission['spamVerdict'], 'pending'>;
  since: string;
  until: string;
};
const NO_FILTERS: Filters = { q: '', spam: 'exclude', verdict: '', since: '', until: '' };

/** The filters as the API takes them (a date range is whole days, in the viewer's zone). */
function filterQuery(f: Filters) {
  const day = (text: string, end = false) => {
    if (text === '') return undefined;
    const d = new Date(`${text}T00:00:00`);
    if (end) d.setDate(d.getDate() + 1);
    return d.toISOString();
  };
  return {
    q: f.q.trim(),
    read: f.read,
    starred: f.starred,
    spam: f.spam === 'exclude' ? undefined : f.spam,
    files: f.files,
    verdict: f.verdict,
    since: day(f.since),
    until: day(f.until, true),
  };
}

/** The first values of a submission, for its line in the list. */
function summary(s: Submission): string {
  return Object.values(s.fields)
    .filter((v) => typeof v === 'string' || typeof v === 'number')
    .slice(0, 3)
    .join(' · ');
}

/**
 * C39: the spam filter's verdict beside the spam tag, when it is unsure or spam: `spam 0.97 ·
 * classifier: link domain bit.ly; url shortener` (the unsure one says so, its score and reason in
 * its title). The reason's signals may be words a stranger typed: text only.
 */
function VerdictTag({ s }: { s: Submission }) {
  if (s.spamVerdict !== 'unsure' && s.spamVerdict !== 'spam') return null;
  const reason = reasonText(s.spamReason);
  const full = [
    [s.spamVerdict, s.spamScore?.toFixed(2)].filter((part) => part !== undefined).join(' '),
    reason,
  ]
    .filter((part) => part !== '')
    .join(' · ');
  return (
    <span class={`tag ${s.spamVerdict}`} title={`Spam filter: ${full}`}>
      {s.spamVerdict === 'unsure' ? 'unsure' : full}
    </span>
  );
}

const ACTIONS = [
  ['read', 'Mark read'],
  ['unread', 'Mark unread'],
  ['star', 'Star'],
  ['unstar', 'Unstar'],
  ['spam', 'Spam'],
  ['not-spam', 'Not spam'],
] as const;

export function InboxScreen({ projectId, item }: ScreenProps & { item?: string | undefined }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [typed, setTyped] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [view, setView] = useState<InboxView>('submissions');
  const draftsOffered = useDraftsOffered(projectId);

  // The search is asked once typing stops.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === typed ? f : { ...f, q: typed })), 150);
    return () => clearTimeout(timer);
  }, [typed]);

  const path = projectPath(projectId, '/submissions');
  const { rows, setRows, next, error, more, reload } = usePages<Submission>(
    async (cursor) => {
      const page = await api<{ submissions: Submission[]; nextCursor?: string }>(
        'GET',
        `${path}${query({ ...filterQuery(filters), cursor })}`,
      );
      return { items: page.submissions, nextCursor: page.nextCursor };
    },
    [path, filters],
    () => setSelected(new Set()),
  );

  const open = (id: string) => go(screenPath(projectId, 'inbox', id));
  const changed = (s: Submission) => setRows((r) => r.map((x) => (x.id === s.id ? s : x)));

  const bulk = async (action: string, ids: string[]) => {
    if (
      action === 'delete' &&
      !(await confirm(`Delete ${plural(ids.length, 'submission')}? This cannot be undone.`, 'Delete'))
    )
      return;
    await act(
      () => api<{ changed: number }>('POST', `${path}/bulk`, { ids, action }),
      action === 'delete' ? `Deleted ${plural(ids.length, 'submission')}` : 'Done',
    );
    if (action === 'delete' && item !== undefined && ids.includes(item)) go(screenPath(projectId, 'inbox'));
    reload();
  };

  // Keyboard: the list's own keys, unless typing in a field.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      // C46: not in the Drafts, which holds no submission for these keys to act on.
      const typing = target.closest('input, textarea, select, dialog');
      if (view === 'drafts' || typing || event.ctrlKey || event.metaKey || event.altKey) return;
      const current = rows[focus];
      const move = (to: number) => {
        const i = Math.max(0, Math.min(rows.length - 1, to));
        setFocus(i);
        list.current?.querySelectorAll<HTMLElement>('.open')[i]?.focus();
      };
      if (event.key === 'j') move(focus + 1);
      else if (event.key === 'k') move(focus - 1);
      else if ((event.key === 'o' || (event.key === 'Enter' && !target.closest('button, a'))) && current)
        open(current.id);
      else if (event.key === 's' && current) void star(current);
      else if (event.key === '#' && current) void bulk('delete', [current.id]);
      else if (event.key === 'x' && current) toggle(current.id);
      else if (event.key === '/') search.current?.focus();
      else return;
      event.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  const star = async (s: Submission) => {
    await act(async () => {
      const { submission } = await api<{ submission: Submission }>(
        'PATCH',
        `${path}/${encodeURIComponent(s.id)}`,
        {
          starred: !s.starred,
        },
      );
      changed(submission);
    });
  };
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const exported = (format: 'csv' | 'jsonl') =>
    `/api/v1${path}/export${query({ ...filterQuery(filters), format })}`;
  const set = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });
  const tri = (value: boolean | undefined) => (value === undefined ? '' : String(value));
  const fromTri = (text: string) => (text === '' ? undefined : text === 'true');

  if (view === 'drafts') return <DraftsInbox projectId={projectId} onView={setView} />;
  return (
    <div class={`inbox${item ? ' with-detail' : ''}`}>
      <section class="list-pane" aria-label="Submissions">
        <h1 class="sr-only">Inbox</h1>
        {draftsOffered && <ViewSwitch view="submissions" onView={setView} />}
        <search class="toolbar">
          <label class="search">
            <span class="sr-only">Search the values</span>
            <input
              ref={search}
              type="search"
              placeholder="Search  ( / )"
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          </label>
          <details class="filters">
            <summary>Filters</summary>
            <label>
              Read
              <select
                value={tri(filters.read)}
                onChange={(e) => set({ read: fromTri(e.currentTarget.value) })}
              >
                <option value="">All</option>
                <option value="false">Unread</option>
                <option value="true">Read</option>
              </select>
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={filters.starred === true}
                onChange={(e) => set({ starred: e.currentTarget.checked || undefined })}
              />
              Starred
            </label>
            <label>
              Spam
              <select
                value={filters.spam}
                onChange={(e) => set({ spam: e.currentTarget.value as Filters['spam'] })}
              >
                <option value="exclude">Not spam</option>
                <option value="only">Spam only</option>
                <option value="include">Both</option>
              </select>
            </label>
            <label>
              Verdict
              <select
                value={filters.verdict}
                onChange={(e) => set({ verdict: e.currentTarget.value as Filters['verdict'] })}
              >
                <option value="">Any</option>
                <option value="ham">Ham</option>
                <option value="unsure">Unsure</option>
                <option value="spam">Spam</option>
                <option value="none">Not judged</option>
              </select>
            </label>
            <label class="check">
              <input
                type="checkbox"
                checked={filters.files === true}
                onChange={(e) => set({ files: e.currentTarget.checked || undefined })}
              />
              With files
            </label>
            <label>
              From
              <input
                type="date"
                value={filters.since}
                onChange={(e) => set({ since: e.currentTarget.value })}
              />
            </label>
            <label>
              To
              <input
                type="date"
                value={filters.until}
                onChange={(e) => set({ until: e.currentTarget.value })}
              />
            </label>
          </details>
          <span class="exports">
            Export <a href={exported('csv')}>CSV</a> · <a href={exported('jsonl')}>JSON lines</a>
          </span>
        </search>
        {selected.size > 0 && (
          <div class="bulk" role="toolbar" aria-label={`${plural(selected.size, 'submission')} selected`}>
            <span>{plural(selected.size, 'selected', 'selected')}</span>
            {ACTIONS.map(([action, label]) => (
              <button type="button" key={action} onClick={() => void bulk(action, [...selected])}>
                {label}
              </button>
            ))}
            <button type="button" class="danger" onClick={() => void bulk('delete', [...selected])}>
              Delete
            </button>
          </div>
        )}
        {error && <p class="error">{error}</p>}
        {rows.length === 0 && !error && <p class="muted">No submissions here.</p>}
        <ul class="rows" ref={list}>
          {rows.map((s, i) => (
            <li key={s.id} class={`${s.read ? '' : 'unread'}${s.id === item ? ' current' : ''}`}>
              <input
                type="checkbox"
                aria-label={`Select the submission of ${new Date(s.receivedAt).toLocaleString()}`}
                checked={selected.has(s.id)}
                onChange={() => toggle(s.id)}
              />
              <button
                type="button"
                class="star"
                aria-pressed={s.starred}
                aria-label={s.starred ? 'Unstar' : 'Star'}
                onClick={() => void star(s)}
              >
                {s.starred ? '★' : '☆'}
              </button>
              <button type="button" class="open" onClick={() => open(s.id)} onFocus={() => setFocus(i)}>
                <span class="when">
                  <Time iso={s.receivedAt} short />
                </span>
                <span class="what">
                  {s.read ? '' : <span class="sr-only">Unread: </span>}
                  {summary(s)}
                </span>
                <span class="tags">
                  {s.spam && <span class="tag">spam</span>}
                  <VerdictTag s={s} />
                  {s.files.length > 0 && <span class="tag">{plural(s.files.length, 'file')}</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {next && (
          <button type="button" onClick={() => void act(more)}>
            Load more
          </button>
        )}
      </section>
      {item && (
        <Detail
          key={item}
          projectId={projectId}
          id={item}
          onChange={changed}
          onDelete={() => void bulk('delete', [item])}
          onClose={() => go(screenPath(projectId, 'inbox'))}
        />
      )}
    </div>
  );
}
