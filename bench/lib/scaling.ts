/**
 * "Cost does not grow with data", measured over HTTP against a Tessera of its own (production
 * settings, the scaling database, the response cache off so that every answer is computed): one request
 * at a time, so each time is one request's cost.
 *   - REST reviews (the face that pages by number): page 1 vs the last page of 100 reviews each,
 *     with 100k reviews on the experience;
 *   - the REST experience, its ratings included: the one with 100k reviews vs one with a single review;
 *   - POST /v1/bookings/cancel: 100 items vs 1 item, on fresh confirmed bookings each time.
 */
import type { ScalingWorld } from './data.ts';
import type { Server } from './processes.ts';
import { bearer, sendOk, type RequestSpec } from './requests.ts';

export const PAGE_SIZE = 100;
export const CANCEL_SIZES = [1, 100];
const PAGE_REPETITIONS = 25;
const WARM_UP = 5;

export interface Comparison {
  smallMs: number;
  largeMs: number;
  ratio: number;
}

export interface ScalingResult {
  reviews: number;
  lastPage: number;
  pages: Comparison;
  experiences: Comparison;
  cancel: Comparison & { repetitions: number };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function timed(baseUrl: string, spec: RequestSpec, what: string, check: (body: any) => boolean): Promise<number> {
  const start = performance.now();
  const body = await sendOk<unknown>(baseUrl, spec, what);
  const ms = performance.now() - start;
  if (!check(body)) throw new Error(`${what}: unexpected answer ${JSON.stringify(body).slice(0, 300)}`);
  return ms;
}

function compare(small: number[], large: number[]): Comparison {
  const smallMs = median(small);
  const largeMs = median(large);
  return { smallMs, largeMs, ratio: largeMs / smallMs };
}

/** The small request then the large one, WARM_UP + PAGE_REPETITIONS times; the medians of the rounds after the warm-up. */
async function alternating(small: () => Promise<number>, large: () => Promise<number>): Promise<Comparison> {
  const smalls: number[] = [];
  const larges: number[] = [];
  for (let i = 0; i < WARM_UP + PAGE_REPETITIONS; i += 1) {
    const a = await small();
    const b = await large();
    if (i >= WARM_UP) {
      smalls.push(a);
      larges.push(b);
    }
  }
  return compare(smalls, larges);
}

async function reviewPages(server: Server, world: ScalingWorld, lastPage: number): Promise<Comparison> {
  const page = (n: number): RequestSpec => ({
    method: 'GET',
    path: `/v1/experiences/${world.experienceId}/reviews?page=${n}&limit=${PAGE_SIZE}`,
    headers: bearer(world.key),
  });
  const full = (body: Array<{ items: unknown[] }>) => body[0]?.items.length === PAGE_SIZE;
  return alternating(
    () => timed(server.url, page(1), 'reviews page 1', full),
    () => timed(server.url, page(lastPage), `reviews page ${lastPage}`, full),
  );
}

/** The experience with every review against the one with a single review, alternating; each answer's ratings checked. */
async function experiencePages(server: Server, world: ScalingWorld): Promise<Comparison> {
  const experience = (id: string): RequestSpec => ({
    method: 'GET',
    path: `/v1/brands/${world.brandId}/experiences/${id}`,
    headers: bearer(world.key),
  });
  const totalIs = (total: number) => (body: { ratings?: { total: number } }) => body.ratings?.total === total;
  return alternating(
    () => timed(server.url, experience(world.oneReviewExperienceId), 'experience with 1 review', totalIs(1)),
    () => timed(server.url, experience(world.experienceId), `experience with ${world.reviews} reviews`, totalIs(world.reviews)),
  );
}

/** Batches alternate 1 and 100 bookings (see CANCEL_SIZES); the first pair warms up. */
async function cancellations(server: Server, world: ScalingWorld): Promise<Comparison & { repetitions: number }> {
  const times = new Map<number, number[]>(CANCEL_SIZES.map((size) => [size, []]));
  for (const [i, ids] of world.bookingBatches.entries()) {
    const spec: RequestSpec = {
      method: 'POST',
      path: '/v1/bookings/cancel',
      headers: { ...bearer(world.key), 'content-type': 'application/json' },
      body: JSON.stringify({ bookings: ids.map((bookingId) => ({ bookingId, cancel: true })) }),
    };
    const all = (body: { items: Array<{ status: string }>; errors: unknown[] }) =>
      body.errors.length === 0 && body.items.length === ids.length && body.items.every((b) => b.status === 'cancelled');
    const ms = await timed(server.url, spec, `cancel ${ids.length} bookings`, all);
    if (i >= CANCEL_SIZES.length) times.get(ids.length)!.push(ms);
  }
  const [small, large] = CANCEL_SIZES.map((size) => times.get(size)!);
  return { ...compare(small!, large!), repetitions: small!.length };
}

export async function measureScaling(server: Server, world: ScalingWorld): Promise<ScalingResult> {
  const lastPage = Math.ceil(world.reviews / PAGE_SIZE);
  return {
    reviews: world.reviews,
    lastPage,
    pages: await reviewPages(server, world, lastPage),
    experiences: await experiencePages(server, world),
    cancel: await cancellations(server, world),
  };
}
