import { eq } from 'drizzle-orm';
import type { Db } from '../../client.ts';
import { organizations } from '../../schema.ts';

export function findOrganization(db: Db, id: string) {
  return db.select().from(organizations).where(eq(organizations.id, id)).get();
}
