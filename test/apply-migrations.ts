import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Setup files may run more than once; applyD1Migrations skips what is already applied. C41: every
// place's database has the same schema.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_EU, env.TEST_MIGRATIONS);
