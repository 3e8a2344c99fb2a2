// C32, C33: who changed what, and when: every change made to the project, newest first.
import { useEffect, useState } from 'preact/hooks';
import { api, projectPath, query } from '../api.ts';
import type { ScreenProps } from '../session.ts';
import { act, messageOf, Time } from '../ui.tsx';

type Entry = {
  id: string;
  at: string;
  actor: string;
  action: string;
  detail: Record<string, unknown> | null;
};
type Page = { entries: Entry[]; nextCursor?: string };

export function AuditScreen({ projectId }: ScreenProps) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const load = async (cursor?: string) => {
    const page = await api<Page>('GET', projectPath(projectId, `/audit${query({ cursor, limit: 100 })}`));
    setEntries((all) => (cursor === undefined ? page.entries : [...all, ...page.entries]));
    setNext(page.nextCursor);
  };
  useEffect(() => {
    load().catch((e) => setError(messageOf(e)));
  }, [projectId]);
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
                <td>
                  <code>{e.detail === null ? '' : JSON.stringify(e.detail)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {next && (
        <button type="button" onClick={() => void act(() => load(next))}>
          Older changes
        </button>
      )}
    </>
  );
}
