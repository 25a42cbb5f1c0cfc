import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes a new migration into drizzle/migrations from src/db/schema.ts. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './drizzle/migrations',
});
