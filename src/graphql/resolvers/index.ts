import type { Resolvers } from '../__generated__/resolvers-types.ts';
import { guardRootFields } from '../publishable.ts';
import { scalarResolvers } from '../scalars.ts';
import { availabilityResolvers } from './availability.ts';
import { sessionWriteResolvers } from './session-writes.ts';
import { bookingResolvers } from './bookings.ts';
import { brandResolvers } from './brands.ts';
import { cancellationResolvers } from './cancellation.ts';
import { checkoutResolvers } from './checkout.ts';
import { eventResolvers } from './events.ts';
import { liveResolvers } from './live.ts';
import { experienceResolvers } from './experiences.ts';
import { hostResolvers } from './hosts.ts';
import { couponResolvers } from './coupons.ts';
import { creditCodeResolvers } from './credit-codes.ts';
import { listingResolvers } from './listings.ts';
import { listingWriteResolvers } from './listing-writes.ts';
import { brandSettingsWriteResolvers } from './brand-settings-writes.ts';
import { organizationResolvers } from './organizations.ts';
import { reviewResolvers } from './reviews.ts';
import { waitlistResolvers } from './waitlists.ts';
import { webhookResolvers } from './webhooks.ts';
import { nodeResolvers } from './nodes.ts';
import { entityResolvers } from './entities.ts';
import { globalIdResolvers } from '../global-ids.ts';

/** Every area's resolvers; each area owns distinct type names, so a shallow merge per type is enough. */
const areas: Resolvers[] = [
  organizationResolvers,
  brandResolvers,
  hostResolvers,
  couponResolvers,
  creditCodeResolvers,
  experienceResolvers,
  listingResolvers,
  listingWriteResolvers,
  brandSettingsWriteResolvers,
  reviewResolvers,
  bookingResolvers,
  availabilityResolvers,
  sessionWriteResolvers,
  cancellationResolvers,
  checkoutResolvers,
  waitlistResolvers,
  webhookResolvers,
  eventResolvers,
  liveResolvers,
  nodeResolvers,
  entityResolvers,
  globalIdResolvers() as Resolvers,
];

export const resolvers: Resolvers = { ...scalarResolvers };
for (const area of areas) {
  for (const [typeName, fields] of Object.entries(area)) {
    const merged = resolvers as Record<string, object>;
    merged[typeName] = { ...merged[typeName], ...fields };
  }
}
guardRootFields(resolvers);
