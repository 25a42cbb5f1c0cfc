/**
 * Reading bookings: one by id (REST and GraphQL) and the back office's paginated list (GraphQL).
 */
import { canSee } from '../access/principal.ts';
import { type BookingFilter, type BookingKey } from './store.ts';
import { loadBrand } from '../catalog/brands.ts';
import { bookingViews, type Booking, type BookingStatus } from './booking-view.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { dayAfter, localDateStart } from '../shared/local-time.ts';
import { connection, decodeCursor, encodeCursor, isCursorInstant, pageSize, type Edge, type PageInfo } from '../shared/pagination.ts';

export interface BookingConnection {
  edges: Array<Edge<Booking>>;
  pageInfo: PageInfo;
  totalCount: number;
}

/** The booking, or null when it does not exist or the caller may not see it (never revealing which). */
export async function findBooking(deps: CallerDeps, input: { bookingId: string }): Promise<Booking | null> {
  const [booking] = await bookingViews(deps, [input.bookingId]);
  return booking && canSee(deps.principal, booking.brandId) ? booking : null;
}

/** The bookings with these ids that the caller may see (the others left out, never revealing why): one read. */
export async function findBookings(deps: CallerDeps, ids: readonly string[]): Promise<Map<string, Booking>> {
  const bookings = await bookingViews(deps, ids);
  return new Map(bookings.filter((booking) => canSee(deps.principal, booking.brandId)).map((booking) => [booking.id, booking]));
}

/** The booking; NOT_FOUND when it does not exist or belongs to a brand the caller may not see. */
export async function getBooking(deps: CallerDeps, input: { bookingId: string }): Promise<Booking> {
  const booking = await findBooking(deps, input);
  if (!booking) throw notFound('Booking', input.bookingId);
  return booking;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bookingCursor = (key: BookingKey) => encodeCursor([key.createdAt, key.id]);

function bookingKey(cursor: string, field: string): BookingKey {
  const [createdAt = '', id = ''] = decodeCursor(cursor, 2, field);
  if (!isCursorInstant(createdAt) || !uuid.test(id)) throw invalid(field, `${field} is not a cursor issued by this API`);
  return { createdAt, id };
}

/**
 * The session-start range of `from`..`to`, both inclusive local dates: sessions starting from `from`
 * at 00:00 up to (excluding) the day after `to` at 00:00, compared with the stored local start.
 */
export function sessionStartRange(from?: string | null, to?: string | null): Pick<BookingFilter, 'startFrom' | 'startBefore'> {
  const start = from == null ? null : localDateStart(from, 'from');
  const end = to == null ? null : localDateStart(to, 'to');
  if (start !== null && end !== null && end < start) throw invalid('to', 'to must be on or after from');
  return {
    startFrom: start !== null ? `${from}T00:00:00` : null,
    startBefore: end !== null ? `${dayAfter(end)}T00:00:00` : null,
  };
}

/**
 * A brand's bookings, newest first by (createdAt, id), as a Relay connection. Cursors hold that key,
 * so bookings created while a client pages never shift what it sees next. A page costs the same
 * statements wherever it sits: the brand, the page's ids, the booking views (three) and one count.
 */
export interface BookingListInput {
  brandId: string;
  status?: BookingStatus | null;
  from?: string | null;
  to?: string | null;
  first?: number | null;
  after?: string | null;
}

export async function listBookings(deps: CallerDeps, input: BookingListInput): Promise<BookingConnection> {
  return bookingPage(deps, input, { first: 'first', after: 'after' });
}

/**
 * The same list as REST pages it (`GET /v1/brands/{brandId}/bookings`): `limit` bookings after `cursor`,
 * newest first, and the `next` cursor while more follow (null on the last page).
 */
export async function listBookingsPage(
  deps: CallerDeps,
  input: Omit<BookingListInput, 'first' | 'after'> & { limit?: number | null; cursor?: string | null },
): Promise<{ items: Booking[]; next: string | null }> {
  const { limit, cursor, ...filter } = input;
  const page = await bookingPage(deps, { ...filter, first: limit, after: cursor }, { first: 'limit', after: 'cursor' });
  return { items: page.edges.map((edge) => edge.node), next: page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null };
}

/** One page of a brand's bookings; `fields` names the page size and cursor as the caller's face does. */
async function bookingPage(
  deps: CallerDeps,
  input: BookingListInput,
  fields: { first: string; after: string },
): Promise<BookingConnection> {
  const first = pageSize(input.first, fields.first);
  const after = input.after == null ? null : bookingKey(input.after, fields.after);
  const range = sessionStartRange(input.from, input.to);
  const brand = await loadBrand(deps, input.brandId);
  const filter: BookingFilter = { brandId: brand.id, status: input.status, ...range };
  // One row more than asked tells whether another page follows.
  const keys = await deps.db.bookings.findBookingPage(filter, after, first + 1);
  const page = keys.slice(0, first);
  const views = new Map(
    (
      await bookingViews(
        deps,
        page.map((key) => key.id),
      )
    ).map((view) => [view.id, view]),
  );
  const { total, before } = await deps.db.bookings.countBookings(filter, after);
  const edges = page.flatMap((key) => {
    const node = views.get(key.id);
    return node ? [{ cursor: bookingCursor(key), node }] : [];
  });
  return { ...connection(edges, { hasNextPage: keys.length > first, hasPreviousPage: before > 0 }), totalCount: total };
}
