/**
 * The named schemas: registered with the app before any route, referenced by `ref()`, listed in the
 * OpenAPI document under components.schemas by their `$id`. Answers are serialized through them as before.
 */
import { Session } from './availability.ts';
import { Booking, Cart } from './bookings.ts';
import { BrandSettings } from './brands.ts';
import { CancelItemError } from './cancellation.ts';
import { PaymentIntent, Quote } from './checkout.ts';
import { ErrorResponse } from './common.ts';
import { EventEnvelope } from './events.ts';
import { Experience } from './experiences.ts';
import { Host } from './hosts.ts';
import { Listing } from './listings.ts';
import { Organization } from './organizations.ts';
import { QuestionSnapshot } from './questions.ts';
import { Links, Review } from './reviews.ts';
import { WaitlistEntry } from './waitlists.ts';
import { WebhookEndpoint } from './webhook-endpoints.ts';
import { Coupon } from './coupons.ts';
import { CreditCode } from './credit-codes.ts';

export const namedSchemas = [
  ErrorResponse,
  Organization,
  BrandSettings,
  Host,
  Experience,
  QuestionSnapshot,
  Listing,
  Review,
  Links,
  Session,
  Quote,
  PaymentIntent,
  Booking,
  Cart,
  CancelItemError,
  WaitlistEntry,
  WebhookEndpoint,
  Coupon,
  CreditCode,
  EventEnvelope,
];
