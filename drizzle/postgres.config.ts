import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate:postgres` writes a new migration into drizzle/postgres/migrations from src/db/postgres/schema/ (one file per area). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres/schema/index.ts',
  out: './drizzle/postgres/migrations',
});
