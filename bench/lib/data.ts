/**
 * The bench's databases, built fresh on every run: the main one (the demo data, what every read target
 * shows, plus a bench-only experience for the write mix), in a temporary SQLite file and, when the bench
 * has PostgreSQL, in a PostgreSQL database of its own, both built by the same code; and a second SQLite
 * database for the scaling checks. Built before any server starts; each server opens its database itself.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '../../src/db/connect.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { openSqliteDatabase } from '../../src/db/sqlite/database.ts';
import type { Seeder } from '../../src/db/tables.ts';
import type { ReviewInsert } from '../../src/domain/catalog/store.ts';
import type { Stores } from '../../src/domain/shared/database.ts';
import { createBooking, createSession, type BookingSpec } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createReviewer, reviewRow } from '../../fixtures/factories/reviews.ts';

export const LISBON_KEY = 'sk_test_lisbon_demo';
export const LISBON = demoIds.brands.lisbon;

/** Places on each write-mix session: far more than a run can book (each booking takes two). */
const WRITE_MIX_CAPACITY = 1_000_000;

/** The write-mix experience's id: the same in every main database, so one WriteMixWorld serves them all. */
const WRITE_MIX_EXPERIENCE_ID = '00000000-0000-4000-8000-0000000be4c1';

export interface WriteMixWorld {
  experienceId: string;
  /** Local start times (`YYYY-MM-DDTHH:MM`) of its sessions, a month ahead. */
  sessionTimes: string[];
}

export interface ScalingWorld {
  key: string;
  brandId: string;
  /** The experience with `reviews` reviews. */
  experienceId: string;
  reviews: number;
  /** An experience of the same brand with one review. */
  oneReviewExperienceId: string;
  /** One list of fresh confirmed bookings per cancel request the scaling check will send. */
  bookingBatches: string[][];
}

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'tessera-bench-'));

/** A local date-time `days` after `now` at `hour`:00 (Lisbon sessions; no DST gap at these hours). */
function ahead(now: Date, days: number, hour: number): string {
  const date = new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  return `${date}T${String(hour).padStart(2, '0')}:00:00`;
}

/** An experience of Harbor Lisbon (not listed, so no read target shows it) with large sessions. */
async function writeMixWorld(seed: Seeder, now: Date): Promise<WriteMixWorld> {
  const { experience } = await createExperience(seed, LISBON, {
    id: WRITE_MIX_EXPERIENCE_ID,
    title: 'Bench Write Mix',
    maxParticipantsCount: 20,
  });
  const sessionTimes: string[] = [];
  for (const hour of [10, 12, 14, 16]) {
    const session = await createSession(seed, experience, { startLocal: ahead(now, 30, hour), capacity: WRITE_MIX_CAPACITY });
    sessionTimes.push(session.startLocal.slice(0, 16));
  }
  return { experienceId: experience.id, sessionTimes };
}

/**
 * The demo data and the write-mix experience in the database at `url` (a SQLite file, or a PostgreSQL
 * database, migrated here), `now` being the demo's "today": built with the same `now`, two databases
 * answer every target alike and give the same WriteMixWorld.
 */
export async function buildMainDatabase(url: string, now: Date): Promise<WriteMixWorld> {
  const engine = await connect(url);
  try {
    await seedDemoDataIfEmpty(engine, now);
    return await engine.seed((seed) => writeMixWorld(seed, now));
  } finally {
    await engine.database.close();
  }
}

/** `count` reviews of one experience by 100 reviewers, a minute apart, in one insertReviews batch. */
async function manyReviews(
  seed: Seeder,
  tx: Stores,
  experience: { brandId: string; experienceId: string; hostId: string },
  count: number,
): Promise<void> {
  const reviewerIds: string[] = [];
  for (let i = 0; i < 100; i += 1) reviewerIds.push((await createReviewer(seed, experience.brandId, { firstName: `Guest${i + 1}` })).id);
  const start = Date.parse('2020-01-01T00:00:00.000Z');
  const rows: ReviewInsert[] = Array.from({ length: count }, (_, i) =>
    reviewRow({
      experienceId: experience.experienceId,
      reviewerId: reviewerIds[i % reviewerIds.length]!,
      hostId: experience.hostId,
      rating: (i % 5) + 1,
      text: `Review ${i + 1}: a fine afternoon on the water, would book again.`,
      reviewedAt: new Date(start + i * 60_000).toISOString(),
    }),
  );
  await tx.reviews.insertReviews(rows);
}

/** `batches` lists of fresh confirmed one-guest bookings of `session`, `batchSizes[i % batchSizes.length]` in list i. */
async function bookingBatches(
  seed: Seeder,
  brandId: string,
  session: BookingSpec['session'],
  batchSizes: number[],
  batches: number,
): Promise<string[][]> {
  const lists: string[][] = [];
  for (let i = 0; i < batches; i += 1) {
    const list: string[] = [];
    for (let n = 0; n < batchSizes[i % batchSizes.length]!; n += 1)
      list.push((await createBooking(seed, { brandId, session })).booking.id!);
    lists.push(list);
  }
  return lists;
}

/**
 * A brand of its own with an experience holding `reviews` reviews and another holding one, and `batches`
 * lists of fresh confirmed one-guest bookings, `batchSizes[i % batchSizes.length]` in list i.
 */
export async function buildScalingDatabase(file: string, reviews: number, batchSizes: number[], batches: number): Promise<ScalingWorld> {
  const engine = openSqliteDatabase(file);
  try {
    return await engine.seed(async (seed, tx) => {
      const brand = await createBrand(seed, { name: 'Bench Scaling' });
      const { secret: key } = await createApiKey(seed, { brandId: brand.id });
      const { experience, host } = await createExperience(seed, brand.id);
      await manyReviews(seed, tx, { brandId: brand.id, experienceId: experience.id, hostId: host.id }, reviews);
      const other = await createExperience(seed, brand.id, { title: 'Harbour Walk' }, { host });
      await manyReviews(seed, tx, { brandId: brand.id, experienceId: other.experience.id, hostId: host.id }, 1);
      const session = await createSession(seed, experience, { startLocal: ahead(new Date(), 30, 10), capacity: 100_000 });
      return {
        key,
        brandId: brand.id,
        experienceId: experience.id,
        reviews,
        oneReviewExperienceId: other.experience.id,
        bookingBatches: await bookingBatches(seed, brand.id, session, batchSizes, batches),
      };
    });
  } finally {
    await engine.database.close();
  }
}
