import { Type } from 'typebox';
import { waitlistEntryStatuses } from '../../domain/shared/values.ts';
import { EMAIL_PATTERN, MAX_PARTICIPANTS, maxLength } from '../../domain/checkout/input.ts';
import { MAX_DURATION_MINUTES, SESSION_DATE_PATTERN, SESSION_TIME_PATTERN } from '../../domain/waitlists/input.ts';
import { MAX_STATUS_FILTERS } from '../../domain/waitlists/waitlists.ts';
import { CheckoutParticipant, personFields } from './checkout.ts';
import { DateTime, ErrorResponse, HUMAN_CHECK_UNAVAILABLE_ANSWER, Nullable, Uuid, errorResponses, ref } from './common.ts';

const Person = {
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
};

/** A party waiting for places on one session. */
export const WaitlistEntry = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Entry id; name it as `waitlistEntryId` in checkout once offered places' }),
    waitlistId: Type.String({ format: 'uuid' }),
    status: Type.Enum(waitlistEntryStatuses, {
      description: 'waiting -> offered (places held for it) -> converted (booked); offered -> expired; waiting/offered -> cancelled (left)',
    }),
    position: Type.Integer({ description: "Place in the session's line, from 1, in joining order" }),
    sessionStartDateTime: Type.String({ description: 'Local start of the session in `timezone`, `YYYY-MM-DDTHH:MM:SS`' }),
    timezone: Type.String({ description: 'IANA zone of the experience' }),
    purchaser: Type.Object(Person, { description: 'Who receives the offer' }),
    participants: Type.Array(Type.Object({ ...Person, priceTierName: Type.String() })),
    createdAt: DateTime,
    offerExpiresAt: Nullable(
      Type.String({ format: 'date-time', description: "When an offer's held places pass to the next entry; null until offered" }),
    ),
    convertedBookingId: Nullable(Type.String({ format: 'uuid', description: 'The booking the offer became; null until converted' })),
  },
  { $id: 'WaitlistEntry', description: 'A party waiting for places on one session' },
);

const WaitlistParams = Type.Object({ brandId: Uuid, waitlistId: Uuid });

export const joinWaitlistSchema = {
  tags: ['Waitlists'],
  operationId: 'joinWaitlist',
  summary: 'Join waitlist',
  description:
    "Queues a party for a sold-out session of the waitlist's experience (201 with the entry, `waiting`). When places " +
    "free up, the first entries in line that fit are `offered` them, held for a while: check out with the entry's id " +
    'as `waitlistEntryId`. 409 SESSION_AVAILABLE when the session has room for the party (book it instead); 409 ' +
    "ALREADY_ON_WAITLIST when the purchaser's email already waits for that session (a secret key; a publishable key " +
    "is answered as if it joined). With a publishable key, one client's (address's) live entries wait for at most " +
    'PUBLISHABLE_HOLD_PLACES_PER_CLIENT places of the brand: beyond, 429 HOLD_LIMIT_REACHED (leave an entry first).',
  params: WaitlistParams,
  body: Type.Object(
    {
      sessionStartDate: Type.String({
        pattern: SESSION_DATE_PATTERN,
        description: "Local date of the session, YYYY-MM-DD, in the experience's zone",
      }),
      sessionStartTime: Type.String({ pattern: SESSION_TIME_PATTERN, description: 'Local start time, HH:MM or HH:MM:SS (24-hour clock)' }),
      sessionDuration: Type.Integer({ minimum: 1, maximum: MAX_DURATION_MINUTES, description: "Minutes; must equal the session's" }),
      purchaser: Type.Object(
        {
          ...personFields,
          emailAddress: Type.String({
            maxLength: maxLength.email,
            pattern: EMAIL_PATTERN,
            description: 'Where the offer is sent; one live entry per email and session',
          }),
        },
        { additionalProperties: false },
      ),
      participants: Type.Array(CheckoutParticipant, { minItems: 1, maxItems: MAX_PARTICIPANTS }),
    },
    { additionalProperties: false },
  ),
  response: {
    201: ref(WaitlistEntry, 'The entry, waiting'),
    ...errorResponses(404, 409, 422),
    502: ref(ErrorResponse, HUMAN_CHECK_UNAVAILABLE_ANSWER),
  },
};

export const listWaitlistEntriesSchema = {
  tags: ['Waitlists'],
  operationId: 'listWaitlistEntries',
  summary: 'List waitlist entries',
  description: 'Entries of the waitlist by session start, then position; optionally of one session and some statuses.',
  params: WaitlistParams,
  querystring: Type.Object(
    {
      sessionStartDateTime: Type.Optional(
        Type.String({ maxLength: maxLength.sessionTime, description: 'Only this session: its local start `YYYY-MM-DDTHH:MM[:SS]`' }),
      ),
      status: Type.Optional(
        Type.Array(Type.Enum(waitlistEntryStatuses), {
          maxItems: MAX_STATUS_FILTERS,
          description: 'Only these statuses (repeat the parameter)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({ data: Type.Array(ref(WaitlistEntry)) }, { description: 'The entries, by session and position' }),
    ...errorResponses(404),
  },
};

export const leaveWaitlistSchema = {
  tags: ['Waitlists'],
  operationId: 'leaveWaitlist',
  summary: 'Leave waitlist',
  description:
    'The entry leaves the line (`cancelled`). Places held for an offered entry pass to the next entries that fit, or ' +
    'back on sale. 409 WAITLIST_ENTRY_CLOSED for an entry already converted, expired or cancelled.',
  params: Type.Object({ brandId: Uuid, waitlistId: Uuid, entryId: Uuid }),
  response: { 200: ref(WaitlistEntry, 'The entry, cancelled'), ...errorResponses(404, 409) },
};
