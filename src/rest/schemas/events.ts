import { Type } from 'typebox';
import { DEFAULT_EVENT_PAGE_SIZE, MAX_TYPES_PARAMETER_LENGTH } from '../../domain/outbox/feed.ts';
import { eventTypes } from '../../domain/outbox/outbox.ts';
import { MAX_CURSOR_LENGTH, MAX_PAGE_SIZE } from '../../domain/shared/pagination.ts';
import { BrandParams, DateTime, Nullable, Uuid, errorResponses, ref } from './common.ts';

/** What webhooks POST, byte for byte: the resource in `data` is kept whole (its fields vary by type). */
export const EventEnvelope = Type.Object(
  {
    id: Uuid,
    type: Type.String({ description: `One of ${eventTypes.join(', ')}` }),
    createdAt: DateTime,
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The Booking (booking.*), waitlist entry (waitlist.*) or Experience (experience.*) as the API shows it right after the change',
      },
    ),
  },
  { $id: 'Event', description: 'An event, as its webhook delivery carries it' },
);

export const listEventsSchema = {
  tags: ['Integrations'],
  operationId: 'listEvents',
  summary: "List a brand's events",
  description:
    'The events of the brand, oldest first, for partners catching up after downtime or without webhooks. ' +
    'Store `next` and send it as `after` on the next call; while `hasMore` is true more events are ready now. ' +
    'Events written while paging always land after issued cursors, so nothing is skipped or repeated. ' +
    'Each element of `data` is exactly the JSON a webhook delivery of the event carries.',
  params: BrandParams,
  querystring: Type.Object({
    after: Type.Optional(Type.String({ maxLength: MAX_CURSOR_LENGTH, description: 'A `next` from an earlier call: only events after it' })),
    types: Type.Optional(
      Type.String({
        maxLength: MAX_TYPES_PARAMETER_LENGTH,
        description: `Comma-separated event types to keep (${eventTypes.join(', ')}); all when omitted`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_EVENT_PAGE_SIZE, description: 'Events per call' }),
    ),
  }),
  response: {
    200: Type.Object(
      {
        data: Type.Array(ref(EventEnvelope)),
        next: Nullable(
          Type.String({
            description:
              'Pass as `after` next time: the position after the last event of `data`, or the `after` sent when `data` is empty (null when neither exists)',
          }),
        ),
        hasMore: Type.Boolean({ description: 'Whether more events follow `data` already' }),
      },
      { description: 'The next events, oldest first' },
    ),
    ...errorResponses(404),
  },
};
