import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration into drizzle/sqlite/migrations from src/db/sqlite/schema/ (one file per area). */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/sqlite/schema/index.ts',
  out: './drizzle/sqlite/migrations',
});
