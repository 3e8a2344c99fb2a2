// `npm run bench:webhook`: accepted submissions to a project with a webhook, side by side with a
// project without one, in one Miniflare on one D1 (C26: the outbox marker is written in the
// submission's own row, and one queue message per 50 ms of marked submissions is sent after the
// 201; nobody consumes it here: the submit path is measured, not delivery). Interleaved
// runs; prints each one's requests a second, the ratio, and the latencies. Settings: BENCH_CONNECTIONS (10),
// BENCH_SECONDS (2), BENCH_REPETITIONS (5).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWebhookSecret } from '../src/lib/webhook-signature.ts';
import { createProjectFromSpecs } from '../src/ops/projects.ts';
import { insertTarget, newWebhookId } from '../src/store/targets.ts';
import { openDatabase } from '../toolkit/database.ts';
import { buildBundle, load, median, scenarios, seed, start } from './harness.ts';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const REPETITIONS = Number(process.env.BENCH_REPETITIONS ?? 5);

const work = mkdtempSync(join(tmpdir(), 'forms-bench-webhook-'));
try {
  await buildBundle(join(work, 'dist'));
  const state = join(work, 'state');
  const plain = await seed(state);
  const opened = await openDatabase({ remote: false, persistTo: state });
  const hooked = await createProjectFromSpecs(opened.db, {
    name: 'Bench with a webhook',
    fields: ['name:string', 'email:string', 'phone:integer', 'enquiry:boolean', 'message:string'],
  });
  await insertTarget(opened.db, {
    id: newWebhookId(),
    projectId: hooked.projectId,
    url: 'https://hooks.example/bench',
    secret: newWebhookSecret(),
  });
  await opened.close();
  const { mf, urls } = await start({ tree: join(work, 'dist') }, state);
  const url = urls.tree ?? '';
  const requests = { none: scenarios(plain.apiKey).accepted, webhook: scenarios(hooked.apiKey).accepted };
  const amounts = new Map<string, number>();
  for (const [name, request] of Object.entries(requests)) {
    const warm = await load(url, request, connections, 2000);
    amounts.set(name, Math.max(2000, Math.round((warm.rps * SECONDS) / 100) * 100));
  }
  const rps: Record<string, number[]> = { none: [], webhook: [] };
  const p50: Record<string, number[]> = { none: [], webhook: [] };
  const p99: Record<string, number[]> = { none: [], webhook: [] };
  for (let rep = 0; rep < REPETITIONS; rep++) {
    const order = rep % 2 ? (['webhook', 'none'] as const) : (['none', 'webhook'] as const);
    for (const name of order) {
      const run = await load(url, requests[name], connections, amounts.get(name) ?? 2000);
      if (run.non2xx > 0) throw new Error(`${name}: ${run.non2xx} replies were not 2xx`);
      rps[name]?.push(run.rps);
      p50[name]?.push(run.p50);
      p99[name]?.push(run.p99);
    }
  }
  const db = await mf.getD1Database('DB');
  const outbox = await db
    .prepare('select count(*) as n from submissions where project_id = ? and outbox is not null')
    .bind(hooked.projectId)
    .first<{ n: number }>();
  await mf.dispose();
  const none = median(rps.none ?? []);
  const webhook = median(rps.webhook ?? []);
  console.log(`\naccepted at c=${connections}, ${REPETITIONS} × ~${SECONDS} s, interleaved`);
  console.log(
    `without a webhook: ${none.toFixed(0)} rps (${(rps.none ?? []).map((r) => r.toFixed(0)).join(' ')})`,
  );
  console.log(
    `with a webhook:    ${webhook.toFixed(0)} rps (${(rps.webhook ?? []).map((r) => r.toFixed(0)).join(' ')})`,
  );
  // Each repetition's own ratio too: the two runs of a repetition are back to back, so the drift
  // of this machine between repetitions cancels out of it.
  const paired = (rps.webhook ?? []).map((w, i) => w / (rps.none?.[i] ?? w));
  console.log(
    `ratio with / without: ${(webhook / none).toFixed(3)} (of the medians); ${median(paired).toFixed(3)} (median of each repetition's: ${paired.map((r) => r.toFixed(2)).join(' ')})`,
  );
  console.log(`submissions marked for delivery: ${outbox?.n}`);
  console.log(
    `latency p50 / p99 (medians): without ${median(p50.none ?? [])} / ${median(p99.none ?? [])} ms, with ${median(p50.webhook ?? [])} / ${median(p99.webhook ?? [])} ms`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
