import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './schema/tables.ts',
  // The same folder as `migrations_dir` in wrangler.toml.
  out: './schema/migrations',
});
