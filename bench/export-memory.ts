// Peak memory of `forms submissions export` for 10,000 and 100,000 stored submissions, side by side:
// a streamed export's peak should barely grow with the row count.
// Run: npm run bench:export
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { submissions } from '../schema/tables.ts';
import { uuidv7 } from '../src/lib/ids.ts';
import { createProjectFromSpecs } from '../src/ops/projects.ts';
import { openDatabase } from '../toolkit/database.ts';

async function seed(dir: string, count: number): Promise<string> {
  const { db, close } = await openDatabase({ remote: false, persistTo: dir });
  const { projectId } = await createProjectFromSpecs(db, {
    name: 'Bench',
    fields: ['name:string', 'email:string', 'phone:integer', 'enquiry:boolean', 'message:string'],
  });
  const data = JSON.stringify({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: 2025550123,
    enquiry: true,
    message: 'x'.repeat(200),
  });
  const receivedAt = new Date().toISOString();
  // 20 rows of 5 parameters per statement (D1 binds at most 100), 50 statements per batch.
  for (let i = 0; i < count; i += 1000) {
    const statements = [];
    for (let j = i; j < Math.min(i + 1000, count); j += 20) {
      const rows = Array.from({ length: Math.min(20, count - j) }, () => ({
        id: uuidv7(),
        projectId,
        data,
        receivedAt,
      }));
      statements.push(db.insert(submissions).values(rows));
    }
    await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  }
  await close();
  return projectId;
}

function peak(dir: string, projectId: string, format: string) {
  const run = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M %e',
      process.execPath,
      'cli/index.ts',
      '--persist-to',
      dir,
      'submissions',
      'export',
      projectId,
      '--format',
      format,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
  const [kib = '0', seconds = '0'] = run.stderr.trim().split('\n').at(-1)?.split(' ') ?? [];
  return {
    lines: run.stdout.split('\n').length - 1,
    peakMiB: Math.round(Number(kib) / 102.4) / 10,
    seconds: Number(seconds),
  };
}

const results: { count: number; format: string; lines: number; peakMiB: number; seconds: number }[] = [];
for (const count of [10_000, 100_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'forms-bench-'));
  const projectId = await seed(dir, count);
  for (const format of ['jsonl', 'csv']) results.push({ count, format, ...peak(dir, projectId, format) });
  rmSync(dir, { recursive: true, force: true });
}
console.table(results);
const ratio = (f: string) => {
  const [small, big] = results.filter((r) => r.format === f);
  return ((big?.peakMiB ?? 0) / (small?.peakMiB ?? 1)).toFixed(2);
};
console.log(`peak RSS ratio 100k/10k: jsonl ${ratio('jsonl')}, csv ${ratio('csv')} (rows ×10)`);
