// C26, C27, C33: deliveries per target, failed first, every attempt with its status and the start
// of its answer; one or every failed one sent again; a webhook disabled by 410 shown as such, and
// turned back on.
import { api, loadChannels, projectPath } from '../api.ts';
import type { Delivery, Webhook } from '../server-types.ts';
import { type ScreenProps, screenPath } from '../session.ts';
import { act, plural, Section, Time, useLoad } from '../ui.tsx';

const ORDER = { failed: 0, cancelled: 1, pending: 2, delivered: 3 };

function DeliveryItem({ d, onRedeliver }: { d: Delivery; onRedeliver: () => void }) {
  return (
    <li>
      <details>
        <summary>
          <span class={`state ${d.status}`}>{d.status}</span> <Time iso={d.createdAt} /> ·{' '}
          {plural(d.attempts, 'attempt')}
          {d.status === 'pending' && d.nextAttemptAt && (
            <span class="muted">
              {' '}
              · next <Time iso={d.nextAttemptAt} />
            </span>
          )}
        </summary>
        <table>
          <caption class="sr-only">Attempts</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">When</th>
              <th scope="col">Answer</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {d.attemptLog.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td>
                  <Time iso={a.at} />
                </td>
                <td>
                  {a.statusCode ?? a.error ?? '—'}
                  {a.excerpt && <pre class="excerpt">{a.excerpt}</pre>}
                </td>
                <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {d.status !== 'delivered' && (
          <button type="button" onClick={onRedeliver}>
            Redeliver now
          </button>
        )}
      </details>
    </li>
  );
}

export function DeliveriesScreen({ projectId }: ScreenProps) {
  const data = useLoad(
    () =>
      Promise.all([
        api<{ deliveries: Delivery[] }>('GET', projectPath(projectId, '/deliveries')),
        api<{ webhooks: Webhook[] }>('GET', projectPath(projectId, '/webhooks')),
        api<{ notifications: { notificationId: string; address: string }[] }>(
          'GET',
          projectPath(projectId, '/notifications'),
        ),
      ]),
    [projectId],
  );
  const [deliveries, webhooks, notifications] = data.data ?? [];
  // A chat hook is named by its channel (`Slack: …`); a signed webhook by its URL alone.
  const channels = useLoad(loadChannels, []).data?.webhook ?? [];
  const kindLabel = (kind: string) => {
    const channel = channels.find((c) => c.kind === kind);
    return channel === undefined || channel.signs ? '' : `${channel.name}: `;
  };
  const targets: { id: string; label: string; webhook: Webhook | undefined }[] = [
    ...(webhooks?.webhooks ?? []).map((w) => ({
      id: w.webhookId,
      label: `${kindLabel(w.kind)}${w.url}`,
      webhook: w,
    })),
    ...(notifications?.notifications ?? []).map((n) => ({
      id: n.notificationId,
      label: `Email to ${n.address}`,
      webhook: undefined,
    })),
  ];
  // C35: the confirmations to submitters have a target of their own, listed by its deliveries.
  const confirmation = deliveries?.deliveries.find((d) => d.kind === 'confirmation');
  if (confirmation)
    targets.push({ id: confirmation.webhookId, label: 'Confirmations to submitters', webhook: undefined });
  const failed = (deliveries?.deliveries ?? []).filter(
    (d) => d.status === 'failed' || d.status === 'cancelled',
  );
  const redeliver = (path: string) =>
    void act(async () => {
      await api('POST', projectPath(projectId, path));
      data.reload();
    }, 'Sent again');
  return (
    <>
      <h1>Deliveries</h1>
      {data.error && <p class="error">{data.error}</p>}
      {failed.length > 0 && (
        <p>
          {plural(failed.length, 'delivery', 'deliveries')} did not arrive.{' '}
          <button type="button" onClick={() => redeliver('/deliveries/redeliver-failed')}>
            Redeliver every failed one
          </button>
        </p>
      )}
      {data.data && targets.length === 0 && (
        <p>
          No webhooks or email addresses yet: add them in{' '}
          <a href={screenPath(projectId, 'settings')}>Settings</a>.
        </p>
      )}
      {targets.map((t) => {
        const own = (deliveries?.deliveries ?? [])
          .filter((d) => d.webhookId === t.id)
          .sort((a, b) => ORDER[a.status] - ORDER[b.status] || b.createdAt.localeCompare(a.createdAt));
        return (
          <Section key={t.id} title={t.label} id={`target-${t.id}`}>
            {t.webhook?.state === 'disabled' && (
              <p class="warning">
                Disabled
                {t.webhook.disabledReason !== 'gone'
                  ? ' by hand'
                  : t.webhook.kind === 'webhook'
                    ? ': the receiver answered 410 Gone'
                    : ': the channel’s hook was deleted (404)'}
                .{' '}
                <button
                  type="button"
                  onClick={() =>
                    void act(async () => {
                      await api('PATCH', projectPath(projectId, `/webhooks/${encodeURIComponent(t.id)}`), {
                        enabled: true,
                      });
                      data.reload();
                    }, 'Enabled')
                  }
                >
                  Enable it again
                </button>
              </p>
            )}
            {own.length === 0 ? (
              <p class="muted">No deliveries yet.</p>
            ) : (
              <ul class="deliveries">
                {own.map((d) => (
                  <DeliveryItem
                    key={d.id}
                    d={d}
                    onRedeliver={() => redeliver(`/deliveries/${encodeURIComponent(d.id)}/redeliver`)}
                  />
                ))}
              </ul>
            )}
          </Section>
        );
      })}
    </>
  );
}
