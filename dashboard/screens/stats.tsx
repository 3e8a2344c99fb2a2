// C33: a project's numbers per day (UTC) for 7, 30 or 90 days, as a chart and as a table.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import { type Day, DaysChart } from '../chart.tsx';
import type { ScreenProps } from '../session.ts';
import { useLoad } from '../ui.tsx';

export function StatsScreen({ projectId }: ScreenProps) {
  const [days, setDays] = useState(30);
  const stats = useLoad(
    () => api<{ days: Day[] }>('GET', projectPath(projectId, `/stats?days=${days}`)),
    [projectId, days],
  );
  const total = (key: keyof Omit<Day, 'day'>) => stats.data?.days.reduce((n, d) => n + d[key], 0) ?? 0;
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
      {stats.data && (
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
          <DaysChart days={stats.data.days} />
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
          <section class="table-scroll" tabIndex={0} aria-label="The table, scrollable">
            <table>
              <caption>Per day (UTC)</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Accepted</th>
                  <th scope="col">Spam</th>
                  <th scope="col">Delivered</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Confirmations capped</th>
                </tr>
              </thead>
              <tbody>
                {[...stats.data.days].reverse().map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{d.day}</th>
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
        </>
      )}
    </>
  );
}
