/**
 * The closed sets of values the domain stores, one list each: the database constrains its columns to
 * them, the REST schemas and the GraphQL enums list them, the domain's types are drawn from them.
 */

export const bookingStatuses = ['processing', 'confirmed', 'failed', 'cancelled', 'refunded'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** The spec's Booking.paymentMethod (`regional-processor` stands for a regional card processor's name). */
export const paymentMethods = [
  'credit-card',
  'room-charge',
  'member-number',
  'loyalty',
  'regional-processor',
  'cash',
  'pay-later',
  'pay-upon-arrival',
] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

export const paymentIntentStatuses = ['requires_payment', 'succeeded', 'failed', 'canceled'] as const;
export type PaymentIntentStatus = (typeof paymentIntentStatuses)[number];

export const refundStatuses = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

export const cartStatuses = ['open', 'paid'] as const;
export type CartStatus = (typeof cartStatuses)[number];

export const waitlistEntryStatuses = ['waiting', 'offered', 'converted', 'expired', 'cancelled'] as const;
export type WaitlistEntryStatus = (typeof waitlistEntryStatuses)[number];

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
/** Whether an endpoint gets deliveries: `disabled` after failing too long, or by its brand. */
export const webhookEndpointStatuses = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof webhookEndpointStatuses)[number];

export const idempotencyStates = ['running', 'completed'] as const;
export type IdempotencyState = (typeof idempotencyStates)[number];

/** Secret keys of a brand or an organization, and a brand's publishable key (for browsers: narrow scope, listed origins). */
export const apiKeyKinds = ['brand', 'organization', 'publishable'] as const;
export type ApiKeyKind = (typeof apiKeyKinds)[number];

export const paymentPlatforms = ['processor-us', 'processor-eu', 'regional-processor'] as const;
export type PaymentPlatform = (typeof paymentPlatforms)[number];

export const serviceVersions = ['V1', 'V2', 'V3'] as const;
export type ServiceVersion = (typeof serviceVersions)[number];

export const productLines = ['activate', 'host', 'reserve'] as const;
export type ProductLine = (typeof productLines)[number];

export const listingKinds = ['experience', 'resource', 'event', 'auction'] as const;
export type ListingKind = (typeof listingKinds)[number];

export const bookingAvailabilityModes = ['private', 'group', 'non-restricted'] as const;
export type BookingAvailabilityMode = (typeof bookingAvailabilityModes)[number];

/** `published` is what partners see by default; `draft` is shown as `version=latest`. */
export const contentVersions = ['published', 'draft'] as const;
export type ContentVersion = (typeof contentVersions)[number];

export const mediaRoles = ['cover', 'picture'] as const;
export type MediaRole = (typeof mediaRoles)[number];

export const questionFieldTypes = ['input', 'textarea', 'multiple_select', 'single_select', 'terms_and_conditions'] as const;
export type QuestionFieldType = (typeof questionFieldTypes)[number];

export const questionScopes = ['purchaser', 'participant'] as const;
export type QuestionScope = (typeof questionScopes)[number];

export const conditionsMatchTypes = ['any', 'all'] as const;
export type ConditionsMatchType = (typeof conditionsMatchTypes)[number];
