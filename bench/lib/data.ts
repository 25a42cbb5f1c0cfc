/**
 * The bench's databases, built fresh in a temporary directory on every run: the demo data (what every
 * read target shows) plus a bench-only experience for the write mix, and a second database for the
 * scaling checks. Built before any server starts; each server opens the file itself.
 */
import { sqliteDatabase } from '../../src/db/sqlite/database.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDatabase, openDatabase, type Db } from '../../src/db/sqlite/client.ts';
import { insertReviews, type ReviewInsert } from '../../src/db/sqlite/stores/catalog/reviews-write.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../src/db/demo/index.ts';
import { createBooking, createSession } from '../../fixtures/factories/bookings.ts';
import { createApiKey, createBrand } from '../../fixtures/factories/brands.ts';
import { createExperience } from '../../fixtures/factories/catalog.ts';
import { createReviewer, reviewRow } from '../../fixtures/factories/reviews.ts';

export const LISBON_KEY = 'sk_test_lisbon_demo';
export const LISBON = demoIds.brands.lisbon;

/** Places on each write-mix session: far more than a run can book (each booking takes two). */
const WRITE_MIX_CAPACITY = 1_000_000;

export interface WriteMixWorld {
  experienceId: string;
  /** Local start times (`YYYY-MM-DDTHH:MM`) of its sessions, a month ahead. */
  sessionTimes: string[];
}

export interface ScalingWorld {
  key: string;
  experienceId: string;
  reviews: number;
  /** One list of fresh confirmed bookings per cancel request the scaling check will send. */
  bookingBatches: string[][];
}

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'tessera-bench-'));

/** A local date-time `days` from now at `hour`:00 (Lisbon sessions; no DST gap at these hours). */
function ahead(days: number, hour: number): string {
  const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return `${date}T${String(hour).padStart(2, '0')}:00:00`;
}

/** An experience of Harbor Lisbon (not listed, so no read target shows it) with large sessions. */
function writeMixWorld(db: Db): WriteMixWorld {
  const { experience } = createExperience(db, LISBON, { title: 'Bench Write Mix', maxParticipantsCount: 20 });
  const sessions = [10, 12, 14, 16].map((hour) =>
    createSession(db, experience, { startLocal: ahead(30, hour), capacity: WRITE_MIX_CAPACITY }),
  );
  return { experienceId: experience.id, sessionTimes: sessions.map((s) => s.startLocal.slice(0, 16)) };
}

/** The demo data and the write-mix experience, in `file`. */
export async function buildMainDatabase(file: string): Promise<WriteMixWorld> {
  const db = openDatabase(file);
  try {
    await seedDemoDataIfEmpty(sqliteDatabase(db), db);
    return writeMixWorld(db);
  } finally {
    closeDatabase(db);
  }
}

/** `count` reviews of one experience by 100 reviewers, a minute apart, in one insertReviews batch. */
function manyReviews(db: Db, brandId: string, experienceId: string, hostId: string, count: number): void {
  const reviewerIds = Array.from({ length: 100 }, (_, i) => createReviewer(db, brandId, { firstName: `Guest${i + 1}` }).id);
  const start = Date.parse('2020-01-01T00:00:00.000Z');
  const rows: ReviewInsert[] = Array.from({ length: count }, (_, i) =>
    reviewRow({
      experienceId,
      reviewerId: reviewerIds[i % reviewerIds.length]!,
      hostId,
      rating: (i % 5) + 1,
      text: `Review ${i + 1}: a fine afternoon on the water, would book again.`,
      reviewedAt: new Date(start + i * 60_000).toISOString(),
    }),
  );
  insertReviews(db, rows);
}

/**
 * A brand of its own with an experience holding `reviews` reviews, and `batches` lists of fresh
 * confirmed one-guest bookings, `batchSizes[i % batchSizes.length]` in list i.
 */
export function buildScalingDatabase(file: string, reviews: number, batchSizes: number[], batches: number): ScalingWorld {
  const db = openDatabase(file);
  try {
    const brand = createBrand(db, { name: 'Bench Scaling' });
    const { secret: key } = createApiKey(db, { brandId: brand.id });
    const { experience, host } = createExperience(db, brand.id);
    manyReviews(db, brand.id, experience.id, host.id, reviews);
    const session = createSession(db, experience, { startLocal: ahead(30, 10), capacity: 100_000 });
    const bookingBatches = Array.from({ length: batches }, (_, i) =>
      Array.from({ length: batchSizes[i % batchSizes.length]! }, () => createBooking(db, { brandId: brand.id, session }).booking.id!),
    );
    return { key, experienceId: experience.id, reviews, bookingBatches };
  } finally {
    closeDatabase(db);
  }
}
