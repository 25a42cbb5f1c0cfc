import { Type } from 'typebox';
import { MAX_CANCEL_ITEMS } from '../../domain/cancellation/input.ts';
import {
  MAX_SESSION_CAPACITY,
  MAX_SESSION_MINUTES,
  MAX_SESSIONS_PER_REQUEST,
  MAX_START_TIMES,
} from '../../domain/availability/schedule-input.ts';
import { Session } from './availability.ts';
import { Booking } from './bookings.ts';
import { CancelItemError } from './cancellation.ts';
import { Uuid, errorResponses, ref } from './common.ts';

const Capacity = (description: string, minimum = 1) => Type.Integer({ minimum, maximum: MAX_SESSION_CAPACITY, description });
const Duration = Type.Integer({
  minimum: 1,
  maximum: MAX_SESSION_MINUTES,
  description: "Length in minutes; the experience's session length when omitted",
});
const LocalDate = (description: string) => Type.String({ format: 'date', description });

const OneOffSession = Type.Object(
  {
    startDateTime: Type.String({ description: "Local start in the experience's zone, `YYYY-MM-DDTHH:MM[:SS]` (an offset is converted)" }),
    capacity: Type.Optional(Capacity('Places; the top-level `capacity` when omitted')),
    duration: Type.Optional(Duration),
  },
  { additionalProperties: false },
);

const Schedule = Type.Object(
  {
    rrule: Type.String({
      description:
        'An RFC 5545 RRULE for the dates (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY; no DTSTART or BYHOUR), e.g. `FREQ=WEEKLY;BYDAY=TU,TH`',
    }),
    from: LocalDate('First date, included: the rule starts here'),
    until: LocalDate('Last date, included'),
    startTimes: Type.Array(Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), {
      minItems: 1,
      maxItems: MAX_START_TIMES,
      description: "Local start times HH:MM on each date, in the experience's zone (the same wall-clock time across DST changes)",
    }),
    exceptions: Type.Optional(Type.Array(Type.String({ format: 'date' }), { description: 'Dates the rule gives that get no session' })),
  },
  { additionalProperties: false },
);

const SessionParams = Type.Object({ brandId: Uuid, sessionId: Uuid });

export const scheduleSessionsSchema = {
  tags: ['Availability'],
  operationId: 'scheduleSessions',
  summary: 'Schedule sessions',
  description:
    'Creates sessions of the experience, one-off (`sessions`) or from a recurring `schedule`, in its local time: 10:00 ' +
    'stays 10:00 across daylight-saving changes, and a start time the clocks skip (01:30 in Lisbon on the last Sunday of ' +
    'March) is refused with 400 VALIDATION_FAILED naming it (leave that date out with `exceptions`). Idempotent by local ' +
    'start: a start the experience already has a session at is left as it is and listed in `existing`, so posting the ' +
    `same schedule again creates nothing. At most ${MAX_SESSIONS_PER_REQUEST} sessions per request (422 SCHEDULE_TOO_LARGE). ` +
    'Records a `session.created` event per session. Secret keys only.',
  params: Type.Object({ brandId: Uuid, experienceId: Uuid }),
  body: Type.Object(
    {
      sessions: Type.Optional(Type.Array(OneOffSession, { minItems: 1, maxItems: MAX_SESSIONS_PER_REQUEST })),
      schedule: Type.Optional(Schedule),
      capacity: Type.Optional(Capacity('Places of every session (required with `schedule`)')),
      duration: Type.Optional(Duration),
    },
    { additionalProperties: false, description: 'Either `sessions` or `schedule`' },
  ),
  response: {
    201: Type.Object(
      {
        data: Type.Array(ref(Session), { description: 'The sessions created, by start' }),
        existing: Type.Array(Type.String(), {
          description: 'Local starts asked for that already had a session (left unchanged), by start',
        }),
      },
      { description: 'The sessions created' },
    ),
    ...errorResponses(400, 403, 404, 422),
  },
};

/** The domain checks the body field by field (schedule-input.ts), so both faces name the same fields. */
export const scheduleSessionsEnvelope = Type.Object({}, { additionalProperties: true });

export const updateSessionSchema = {
  tags: ['Availability'],
  operationId: 'updateSession',
  summary: 'Change a session',
  description:
    'Sets the capacity of a session. Never below the places taken (booked, held, offered to its waitlist): 409 ' +
    'CAPACITY_BELOW_TAKEN with `details.taken`. Places added go to the waitlist first, as a cancellation frees them. ' +
    '409 SESSION_CANCELLED; 422 SESSION_STARTED. Records `session.updated`. Secret keys only.',
  params: SessionParams,
  body: Type.Object({ capacity: Capacity('Places the session has', 0) }, { additionalProperties: false }),
  response: {
    200: Type.Object({ data: ref(Session) }, { description: 'The session as it is now' }),
    ...errorResponses(400, 403, 404, 409, 422),
  },
};

export const cancelSessionSchema = {
  tags: ['Availability'],
  operationId: 'cancelSession',
  summary: 'Cancel a session',
  description:
    'Cancels a session (weather, a sick guide): it is no longer sold (left out of availability; checkouts and waitlist ' +
    'joins get 409 SESSION_CANCELLED), its waitlist entries leave the line, and every booking holding places on it is ' +
    'cancelled and, when paid by card, refunded in full, with the usual booking events and webhooks. Records ' +
    '`session.cancelled` first. A session that has started: 409 SESSION_NOT_CANCELLABLE. Cancelling it again retries ' +
    `the bookings listed in \`errors\`. Bookings are cancelled ${MAX_CANCEL_ITEMS} at a time. Secret keys only.`,
  params: SessionParams,
  body: Type.Optional(
    Type.Object(
      { reason: Type.Optional(Type.String({ maxLength: 500, description: 'Why, recorded in the `session.cancelled` event' })) },
      { additionalProperties: false },
    ),
  ),
  response: {
    200: Type.Object(
      {
        data: ref(Session),
        bookings: Type.Array(ref(Booking), { description: 'The bookings cancelled by this request, as they are now' }),
        errors: Type.Array(ref(CancelItemError), {
          description: 'Bookings that could not be cancelled; cancel the session again to retry',
        }),
      },
      { description: 'The cancelled session and its bookings' },
    ),
    ...errorResponses(400, 403, 404, 409),
  },
};
