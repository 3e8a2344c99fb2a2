// C32, C33: who changed what, and when: every change made to the project, newest first.
import { api, projectPath, query } from '../api.ts';
import { detailText } from '../audit-detail.ts';
import type { Entry } from '../server-types.ts';
import type { ScreenProps } from '../session.ts';
import { act, Time, usePages } from '../ui.tsx';

export function AuditScreen({ projectId }: ScreenProps) {
  const {
    rows: entries,
    next,
    error,
    more,
  } = usePages<Entry>(
    async (cursor) => {
      const page = await api<{ entries: Entry[]; nextCursor?: string }>(
        'GET',
        projectPath(projectId, `/audit${query({ cursor, limit: 100 })}`),
      );
      return { items: page.entries, nextCursor: page.nextCursor };
    },
    [projectId],
  );
  return (
    <>
      <h1>Audit log</h1>
      {error && <p class="error">{error}</p>}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="table-scroll" tabIndex={0} aria-label="The table, scrollable">
        <table>
          <caption class="sr-only">Changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <Time iso={e.at} />
                </td>
                <td>{e.actor}</td>
                <td>{e.action}</td>
                <td>{detailText(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {next && (
        <button type="button" onClick={() => void act(more)}>
          Older changes
        </button>
      )}
    </>
  );
}
