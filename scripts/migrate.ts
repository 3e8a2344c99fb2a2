// `npm run db:migrate:local` and `npm run db:migrate:remote`: the migrations applied to every
// database of wrangler.toml (C41: every place's), one after the other, stopping at the first that fails.
import { databaseBindings, wrangler } from '../toolkit/database.ts';

const where = process.argv.includes('--remote') ? '--remote' : '--local';
for (const binding of databaseBindings()) {
  wrangler(['d1', 'migrations', 'apply', binding, where]);
  console.log(`Migrated ${binding} (${where.slice(2)})`);
}
