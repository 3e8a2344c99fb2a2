// C7, C23, C33: a project's keys in Settings: created and shown once, with their last use; revoked.
import { useState } from 'preact/hooks';
import { api, projectPath } from '../api.ts';
import type { Project } from '../server-types.ts';
import { act, confirm, Section, ShownOnce, Time } from '../ui.tsx';

export function Keys({ project, reload }: { project: Project; reload: () => void }) {
  const [shown, setShown] = useState<string | undefined>();
  const [kind, setKind] = useState('publishable');
  const create = () =>
    act(async () => {
      const { key } = await api<{ key: string }>('POST', projectPath(project.id, '/keys'), { kind });
      setShown(key);
      reload();
    });
  const revoke = async (prefix: string) => {
    if (
      !(await confirm(
        `Revoke the key ${prefix}…? Forms and servers using it are refused from then on.`,
        'Revoke',
      ))
    )
      return;
    await act(async () => {
      await api('DELETE', projectPath(project.id, `/keys/${encodeURIComponent(prefix)}`));
      reload();
    }, 'Revoked');
  };
  return (
    <Section title="Keys">
      {shown && <ShownOnce label={`The new ${kind} key`} value={shown} onDone={() => setShown(undefined)} />}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="table-scroll" tabIndex={0} aria-label="The keys, scrollable">
        <table>
          <caption class="sr-only">Keys</caption>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {project.keys.map((k) => (
              <tr key={k.prefix}>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{k.kind}</td>
                <td>
                  <Time iso={k.createdAt} />
                </td>
                <td>{k.lastUsedAt ? <Time iso={k.lastUsedAt} /> : 'never'}</td>
                <td>
                  {k.revokedAt ? (
                    'revoked'
                  ) : (
                    <button type="button" class="danger" onClick={() => void revoke(k.prefix)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div class="row">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="publishable">publishable (for pages)</option>
            <option value="secret">secret (for servers)</option>
          </select>
        </label>
        <button type="button" onClick={() => void create()}>
          Create a key
        </button>
      </div>
    </Section>
  );
}
