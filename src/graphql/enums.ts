import { eventTypes } from '../domain/outbox/outbox.ts';
import { webhookEndpointStatuses } from '../domain/shared/values.ts';

/**
 * GraphQL enum values (SCREAMING_SNAKE_CASE) and the spec's strings they stand for. Apollo maps them
 * through enum resolvers; codegen types the domain side with the same strings. Enum values may not
 * hold dashes or dots, so both become underscores (`booking.created` is BOOKING_CREATED).
 */
type EnumName<S extends string> = Uppercase<
  S extends `${infer A}-${infer B}` ? `${A}_${EnumName<B>}` : S extends `${infer A}.${infer B}` ? `${A}_${EnumName<B>}` : S
>;

function spell<const V extends string>(values: readonly V[]) {
  return Object.fromEntries(values.map((v) => [v.toUpperCase().replace(/[-.]/g, '_'), v])) as { [K in V as EnumName<K>]: K };
}

export const enumValues = {
  ApiKeyKind: spell(['brand', 'organization', 'publishable']),
  PaymentPlatform: spell(['processor-us', 'processor-eu', 'regional-processor']),
  ProductLine: spell(['activate', 'host', 'reserve']),
  ListingKind: spell(['experience', 'resource', 'event', 'auction']),
  BookingAvailabilityMode: spell(['private', 'group', 'non-restricted']),
  ContentVersion: spell(['latest', 'published']),
  CartStatus: spell(['open', 'paid']),
  PaymentIntentStatus: spell(['requires_payment', 'succeeded', 'failed', 'canceled']),
  BookingStatus: spell(['processing', 'confirmed', 'failed', 'cancelled', 'refunded']),
  QuestionFieldType: spell(['input', 'textarea', 'multiple_select', 'single_select', 'terms_and_conditions']),
  QuestionScope: spell(['purchaser', 'participant']),
  ConditionsMatchType: spell(['any', 'all']),
  ConditionRule: spell(['value_matches']),
  WaitlistEntryStatus: spell(['waiting', 'offered', 'converted', 'expired', 'cancelled']),
  SessionStatus: spell(['scheduled', 'cancelled']),
  EventType: spell(eventTypes),
  WebhookDeliveryStatus: spell(['pending', 'delivered', 'failed']),
  WebhookEndpointStatus: spell(webhookEndpointStatuses),
  ExperienceStatus: spell(['active', 'archived']),
  PaymentMethod: spell([
    'credit-card',
    'room-charge',
    'member-number',
    'loyalty',
    'regional-processor',
    'cash',
    'pay-later',
    'pay-upon-arrival',
  ]),
} as const;
