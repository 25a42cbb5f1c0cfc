import { Type } from 'typebox';
import { MAX_AVAILABILITY_DAYS } from '../../domain/availability/sessions.ts';
import { Nullable, Uuid, errorResponses, ref } from './common.ts';

/** One session of an experience. */
export const Session = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Session id' }),
    startDateTime: Type.String({
      description: "Local start in `timezone`, `YYYY-MM-DDTHH:MM:SS` without offset; send it as a cart item's `sessionTime`",
    }),
    timezone: Type.String({ description: 'IANA zone of the experience, e.g. Europe/Lisbon' }),
    duration: Type.Integer({ description: 'Length in minutes' }),
    capacity: Type.Integer({ description: 'Places the session has' }),
    remaining: Type.Integer({
      description:
        'Places on sale: capacity less active participants of processing and confirmed bookings and places held for waitlist offers',
    }),
    waitlistId: Nullable(Type.String({ format: 'uuid', description: 'Waitlist of the experience, to join when the session is sold out' })),
  },
  { $id: 'Session', description: 'One session of an experience' },
);

const localDate = (description: string) =>
  Type.String({ format: 'date', description: `${description} (local date YYYY-MM-DD in the experience's zone)` });

export const listAvailabilitySchema = {
  tags: ['Availability'],
  operationId: 'listAvailability',
  summary: 'List the sessions of an experience',
  description: `Sessions starting on the local dates from..to (both included, at most ${MAX_AVAILABILITY_DAYS} days), by start time. A session that has started is left out: it can no longer be booked.`,
  params: Type.Object({ brandId: Uuid, experienceId: Uuid }),
  querystring: Type.Object({
    from: localDate('First date, included'),
    to: localDate(`Last date, included; at most ${MAX_AVAILABILITY_DAYS} days from \`from\` counting both`),
  }),
  response: {
    200: Type.Object({ data: Type.Array(ref(Session)) }, { description: 'The sessions, by start time' }),
    ...errorResponses(404),
  },
};
