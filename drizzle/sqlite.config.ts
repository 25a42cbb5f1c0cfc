import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration into drizzle/sqlite/migrations from src/db/sqlite/schema.ts. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/sqlite/schema.ts',
  out: './drizzle/sqlite/migrations',
});
