// `forms deliveries …`: webhook and email deliveries with every attempt, and redelivery (C26, C27).
import type { Command } from 'commander';
import type { AttemptOutcome } from '../src/delivery/attempt.ts';
import { shown } from '../src/lib/printable.ts';
import { addressOf } from '../src/store/targets.ts';
import { type Context, integrationsApiBase, table, UsageError } from './context.ts';

/** What a redelivery came to, in a few words. */
function outcomeText(projectId: string, r: AttemptOutcome): string {
  switch (r.kind) {
    case 'delivered':
      return `delivered (${r.status})`;
    case 'retry':
      return `not yet (${r.status ?? r.error}); next attempt in ${r.delaySeconds} s`;
    case 'failed':
      return `failed (${r.status ?? r.error})`;
    case 'skipped': {
      const { claim } = r;
      if (claim.kind === 'busy') return `not sent: another attempt is in progress (until ${claim.until})`;
      if (claim.kind === 'disabled') {
        return `not sent: its webhook is disabled (enable it with: forms webhook enable ${projectId} <webhook-id>)`;
      }
      return claim.kind === 'gone' ? 'not sent: it no longer exists' : `not sent: it is ${claim.status}`;
    }
  }
}

export function deliveriesCommands(cli: Command, { withOps, print }: Context): void {
  const deliveries = cli.command('deliveries').description('webhook and email deliveries and their attempts');
  deliveries
    .command('list <project>')
    .description('each delivery: submission, target, attempts, last status, next attempt (the latest 100)')
    .option('--failed', 'only those that ended without being delivered: failed or cancelled')
    .option('--attempts', 'with every attempt of each')
    .action(
      withOps(async (ops, global, projectId: string, opts: { failed?: boolean; attempts?: boolean }) => {
        const rows = await ops.listDeliveries(projectId, { failed: opts.failed === true });
        print(global, { projectId, deliveries: rows }, () => {
          if (rows.length === 0) return `No ${opts.failed ? 'failed ' : ''}deliveries for ${projectId}.`;
          const lines = [
            table([
              ['DELIVERY', 'SUBMISSION', 'TARGET', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT'],
              ...rows.map((r) => [
                r.id,
                r.submissionId,
                r.kind === 'email' ? `email ${addressOf(r.url)}` : r.url,
                r.status,
                String(r.attempts),
                r.lastStatus === null ? (r.lastError ?? '—') : String(r.lastStatus),
                r.status === 'pending' ? (r.nextAttemptAt ?? '—') : '—',
              ]),
            ]),
          ];
          if (opts.attempts) {
            for (const d of rows) {
              lines.push(`${d.id}:`);
              for (const a of d.attemptLog) {
                lines.push(
                  `  #${a.attempt} ${a.at} ${shown(String(a.statusCode ?? a.error))} (${a.durationMs} ms)`,
                );
              }
            }
          }
          return lines.join('\n');
        });
      }),
    );
  deliveries
    .command('redeliver <project> [delivery-id]')
    .description('attempt a delivery again now, from this machine (or every failed one with --failed)')
    .option('--failed', 'every delivery of the project that ended without being delivered')
    .action(
      withOps(async (ops, global, projectId: string, id: string | undefined, opts: { failed?: boolean }) => {
        if ((id === undefined) === (opts.failed !== true)) {
          throw new UsageError('Give a delivery id or --failed, one of them');
        }
        const results = await ops.redeliver(projectId, id === undefined ? { failed: true } : { id }, {
          allowLocalHttp: true,
          // C38: an integration's stand-in, for local development (docs/delivery.md).
          integrationsApiBase: integrationsApiBase(global),
        });
        print(global, { projectId, redelivered: results }, () =>
          results.length === 0
            ? `No failed deliveries for ${projectId}.`
            : results
                .map((r) =>
                  r.kind === 'queued'
                    ? `${r.deliveryId}: an email, queued again: the worker sends it within about three minutes`
                    : `${shown(r.deliveryId)}: ${shown(outcomeText(projectId, r))}`,
                )
                .join('\n'),
        );
      }),
    );
}
