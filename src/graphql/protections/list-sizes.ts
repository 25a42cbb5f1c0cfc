/**
 * How many items each list field of the schema may answer, for the cost budget (cost.ts). A list the
 * client sizes (`first`/`limit`, `ids`, `representations`) counts its page; every other list counts what it
 * can return: a date range's days times the sessions a day, or a declared bound. A unit test fails when a
 * list field of objects is added to schema/ without an entry here (test/unit/graphql/graphql-cost.test.ts).
 *
 * Where the domain caps a list (a cart's items, a cancellation's items) the bound is that cap. The
 * catalogue (pictures, price tiers, questions, sessions) is written by no API: its bounds are what a
 * catalogue is declared to hold, several times what the demo brands hold (6 featured listings of at most
 * 3 medias of 2 renditions, 7 questions of at most 5 options), so that a shop's featured listings with
 * every field (3800) and the booking page's experience with its questions and two weeks of sessions (907)
 * fit. Booking records' inner lists (participants, answers) are declared at what a booking typically
 * holds, well under what checkout accepts (100 participants), so that a booking can be read with every
 * field (3758). What a bound misjudges, the response ceiling
 * (GRAPHQL_MAX_RESPONSE_BYTES, response-size.ts) still refuses. Lists of scalars or enums cost nothing,
 * as scalars do; introspection's lists count once (the schema's own size, fixed and served from memory).
 */
import { DateTime } from 'luxon';
import { MAX_AVAILABILITY_DAYS } from '../../domain/availability/sessions.ts';
import { MAX_CART_ITEMS } from '../../domain/checkout/input.ts';
import { MAX_CANCEL_ITEMS } from '../../domain/cancellation/input.ts';
import { MAX_SESSIONS_PER_REQUEST } from '../../domain/availability/schedule-input.ts';
import { MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';

/** The sessions one experience may run on one local day, as the catalogue is declared: one every hour. */
export const MAX_SESSIONS_PER_DAY = 24;

/** Items of a list: a fixed bound, or one computed from the field's arguments (already coerced). */
export type ListSize =
  | { kind: 'bound'; items: number }
  | { kind: 'arguments'; items: (args: Record<string, unknown>) => number }
  /** A connection's `edges`: the page size of the field that answered the connection. */
  | { kind: 'page' }
  /** `nodes(ids:)`, `_entities(representations:)`: one item per id or representation sent. */
  | { kind: 'listed' };

const bound = (items: number): ListSize => ({ kind: 'bound', items });
const page: ListSize = { kind: 'page' };

/** Days of `from`..`to` (local dates, both included), as the availability resolver reads them, within its limit. */
export function rangeDays(from: unknown, to: unknown): number {
  const start = typeof from === 'string' ? DateTime.fromISO(from, { zone: 'UTC' }) : null;
  const end = typeof to === 'string' ? DateTime.fromISO(to, { zone: 'UTC' }) : null;
  // A range the resolver refuses answers nothing; an unreadable one is counted as the longest it allows.
  if (!start?.isValid || !end?.isValid) return MAX_AVAILABILITY_DAYS;
  const days = Math.trunc(end.diff(start, 'days').days) + 1;
  return Math.min(Math.max(days, 1), MAX_AVAILABILITY_DAYS);
}

/** Sessions of one experience over a date range: its days times the sessions a day. */
const sessionsInRange: ListSize = {
  kind: 'arguments',
  items: (args) => rangeDays(args.from, args.to) * MAX_SESSIONS_PER_DAY,
};

/** Every list field of objects in schema/, by `Type.field`. */
export const listSizes: Readonly<Record<string, ListSize>> = {
  // Pages the client sizes.
  'BookingConnection.edges': page,
  'EventConnection.edges': page,
  'ReviewConnection.edges': page,
  'WebhookDeliveryConnection.edges': page,
  'Query.nodes': { kind: 'listed' },
  'Query._entities': { kind: 'listed' },
  // Date ranges.
  'Query.availability': sessionsInRange,
  'Experience.sessions': sessionsInRange,
  'Subscription.sessionAvailability': sessionsInRange,
  // Capped by the domain.
  'Cart.bookings': bound(MAX_CART_ITEMS),
  'CancelBookingsPayload.items': bound(MAX_CANCEL_ITEMS),
  'CancelBookingsPayload.errors': bound(MAX_CANCEL_ITEMS),
  'ScheduleSessionsPayload.sessions': bound(MAX_SESSIONS_PER_REQUEST),
  // A session's bookings are bounded by its capacity only; counted as one cancel request's items (the response ceiling backs it).
  'CancelSessionPayload.bookings': bound(MAX_CANCEL_ITEMS),
  'CancelSessionPayload.errors': bound(MAX_CANCEL_ITEMS),
  // The catalogue, as it is declared to hold at most.
  'Experience.vibes': bound(10),
  'Experience.pictures': bound(20),
  'Experience.medias': bound(20),
  'Experience.priceTiers': bound(10),
  'Experience.taxes': bound(5),
  'Experience.integrationMeta': bound(5),
  'Experience.customQuestions': bound(20),
  // The experience document takes at most 100 (experience-document.ts).
  'Experience.addOns': bound(100),
  'CustomQuestion.options': bound(20),
  'QuestionConfig.conditions': bound(5),
  'Query.featuredListings': bound(50),
  'Listing.medias': bound(10),
  'Listing.vibes': bound(10),
  'Media.links': bound(5),
  'Query.hosts': bound(50),
  'Organization.brands': bound(MAX_PAGE_SIZE),
  'Viewer.brands': bound(MAX_PAGE_SIZE),
  'Query.webhookEndpoints': bound(MAX_PAGE_SIZE),
  // A brand's coupons and credit codes, unpaged: counted as a page, as its webhook endpoints are.
  'Query.coupons': bound(MAX_PAGE_SIZE),
  'Query.creditCodes': bound(MAX_PAGE_SIZE),
  // Inside a booking or a waitlist entry, as one typically holds.
  'Booking.participants': bound(10),
  'Booking.reschedules': bound(5),
  'Purchaser.customQuestionAnswers': bound(10),
  'Participant.customQuestionAnswers': bound(10),
  'CustomQuestionAnswer.answer': bound(5),
  'Waitlist.entries': bound(MAX_PAGE_SIZE),
  'WaitlistEntry.participants': bound(10),
};
