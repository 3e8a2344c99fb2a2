// C33: a project's numbers per day (UTC) for 7, 30 or 90 days: a chart of the whole period and a
// table of the days something happened; a period with nothing in it says so in one line. C40: the
// form's funnel (views, starts, submissions) and where visitors gave up, field by field.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { DaysChart } from '../chart.tsx';
import type { Day, Stats } from '../server-types.ts';
import type { ScreenProps } from '../session.ts';
import { useLoad } from '../ui.tsx';

type Counted = 'accepted' | 'spam' | 'delivered' | 'failed' | 'confirmationsCapped' | 'views' | 'starts';
const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${Math.round((part / whole) * 1000) / 10}%`;

/** One bar of the funnel: its width the share of the widest, its numbers in text beside it. */
function Bar({
  label,
  value,
  of,
  note,
}: {
  label: string;
  value: number;
  of: number;
  note?: string | undefined;
}) {
  return (
    <li class="funnel-step">
      <span class="funnel-label">{label}</span>
      <span class="funnel-track" aria-hidden="true">
        <span
          class="funnel-bar"
          style={{ width: `${of === 0 ? 0 : Math.max((value / of) * 100, value > 0 ? 1 : 0)}%` }}
        />
      </span>
      <span class="funnel-value">{value}</span>
      {note && <span class="funnel-note">{note}</span>}
    </li>
  );
}

/** C40: views → starts → submissions, then the fields where started forms were left, in the form's order. */
function Funnel({ stats, total }: { stats: Stats; total: (key: Counted) => number }) {
  const views = total('views');
  const starts = total('starts');
  const accepted = total('accepted');
  const widest = Math.max(views, starts, accepted, 1);
  const gaveUp = stats.dropOff.reduce((n, d) => n + d.visitors, 0);
  return (
    <section aria-labelledby="funnel-title">
      <h2 id="funnel-title">Funnel</h2>
      <ol class="funnel">
        <Bar label="Saw the form" value={views} of={widest} />
        <Bar label="Started" value={starts} of={widest} note={`${percent(starts, views)} of views`} />
        <Bar
          label="Submitted"
          value={accepted}
          of={widest}
          note={
            accepted > starts
              ? 'more than started: some were sent without the widget, by a server or a page without it'
              : `${percent(accepted, starts)} of starts`
          }
        />
      </ol>
      <p>
        Median time from the first input to a submission:{' '}
        {stats.medianSecondsToSubmit === null ? 'none yet' : `${stats.medianSecondsToSubmit} s`}.
      </p>
      <h3>Where visitors gave up</h3>
      {gaveUp === 0 ? (
        <p>No one has left a started form unsent in this period.</p>
      ) : (
        <ol class="funnel">
          {stats.dropOff.map((d) => (
            <Bar
              key={d.field}
              // C46: on a page in steps, the step each field is on: where a visitor left it.
              label={stats.dropOff.some((x) => x.step > 1) ? `${d.field} (step ${d.step})` : d.field}
              value={d.visitors}
              of={Math.max(...stats.dropOff.map((x) => x.visitors))}
              note={d.averageSeconds === null ? undefined : `after ${d.averageSeconds} s on average`}
            />
          ))}
        </ol>
      )}
      <p class="muted">
        Counted without cookies: a visitor is a hash that changes every day, and a browser that asks not to be
        tracked is not counted.
      </p>
    </section>
  );
}

const COUNTED: Counted[] = [
  'views',
  'starts',
  'accepted',
  'spam',
  'delivered',
  'failed',
  'confirmationsCapped',
];
/** A day something happened: a view, a start, a submission, a delivery or a cap. */
const isActive = (d: Day) => COUNTED.some((key) => d[key] > 0);

/** The days something happened, the latest first; the chart above keeps the whole period. */
function DaysTable({ days, of }: { days: Day[]; of: number }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1)
    <section class="table-scroll" tabIndex={0} aria-label="The table, scrollable">
      <table>
        <caption>
          Days with activity (UTC): {days.length} of {of}; the others had none
        </caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
            <th scope="col">Starts</th>
            <th scope="col">Accepted</th>
            <th scope="col">Spam</th>
            <th scope="col">Delivered</th>
            <th scope="col">Failed</th>
            <th scope="col">Confirmations capped</th>
          </tr>
        </thead>
        <tbody>
          {[...days].reverse().map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.views}</td>
              <td>{d.starts}</td>
              <td>{d.accepted}</td>
              <td>{d.spam}</td>
              <td>{d.delivered}</td>
              <td>{d.failed}</td>
              <td>{d.confirmationsCapped}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function StatsScreen({ projectId }: ScreenProps) {
  const [days, setDays] = useState(30);
  const stats = useLoad(
    () => api<Stats>('GET', projectPath(projectId, `/stats?days=${days}`)),
    [projectId, days],
  );
  const total = (key: Counted) => stats.data?.days.reduce((n, d) => n + d[key], 0) ?? 0;
  const active = stats.data?.days.filter(isActive) ?? [];
  return (
    <>
      <h1>Stats</h1>
      <fieldset class="row">
        <legend>Period</legend>
        {[7, 30, 90].map((n) => (
          <label key={n} class="check">
            <input type="radio" name="days" checked={days === n} onChange={() => setDays(n)} /> {n} days
          </label>
        ))}
      </fieldset>
      {stats.error && <p class="error">{stats.error}</p>}
      {stats.data && active.length === 0 && (
        <p class="empty">Nothing in the last {days} days: no view, no submission, no delivery.</p>
      )}
      {stats.data && active.length > 0 && (
        <>
          <p>
            {total('accepted')} accepted, {total('spam')} spam, {total('delivered')} delivered,{' '}
            {total('failed')} failed.
          </p>
          {total('confirmationsCapped') > 0 && (
            <p class="warning" role="status">
              A daily cap stopped {total('confirmationsCapped')} confirmation
              {total('confirmationsCapped') === 1 ? '' : 's'} to submitters in this period: one mailbox gets
              one a day from a project, and a project sends at most its daily number (C35). Deliveries lists
              each one.
            </p>
          )}
          <Funnel stats={stats.data} total={total} />
          <h2>Per day</h2>
          <DaysChart days={stats.data.days} />
          <DaysTable days={active} of={stats.data.days.length} />
        </>
      )}
    </>
  );
}
