import { InMemoryCache, type TypePolicies } from '@apollo/client';

/**
 * Tessera's object types without an `id`: values that belong to the object holding them. `merge: true`
 * lets two queries selecting different fields of one (an experience's `location`, its `ratings`) add to
 * each other instead of replacing, which loses data and makes Apollo warn. Every other type has a
 * global `id` (`Node`), which Apollo's default `dataIdFromObject` normalizes on.
 */
export const valueObjectTypes = `
  AnswerValue ArchiveExperiencePayload BookingConnection BookingEdge BookingEvent BookingReschedule
  BrandImageUri CancelBookingError CancelBookingsPayload CancelSessionPayload
  ComplimentaryBookingValidation CreateCouponPayload CreateExperiencePayload CreateHostPayload
  CreateListingPayload CreatePaymentIntentPayload CreateWebhookEndpointPayload
  DeleteWebhookEndpointPayload DesignElement EventConnection EventDates EventEdge ExperienceAddOn
  ExperienceLocation ExternalField Features Hero IntegrationMeta IssueCreditCodePayload
  JoinWaitlistPayload LeaveWaitlistPayload ListingRating MediaLink PageInfo PriceTier Promotion
  PublishListingPayload QuestionCondition QuestionConfig QuestionOption Ratings RescheduleBookingPayload
  ReviewConnection ReviewEdge ScheduleSessionsPayload SessionStart Tax TemplateElement TermsAndConditions
  UnarchiveExperiencePayload UpdateBrandSettingsPayload UpdateCouponPayload UpdateCreditCodePayload
  UpdateExperiencePayload UpdateHostPayload UpdateListingDraftPayload UpdateSessionPayload
  UpdateWebhookEndpointPayload Viewer WaitlistParticipant WaitlistPurchaser WalletPaymentMethods
  WebhookDeliveryConnection WebhookDeliveryEdge
`
  .trim()
  .split(/\s+/);

export const typePolicies: TypePolicies = Object.fromEntries(valueObjectTypes.map((type) => [type, { merge: true }]));

/** The cache a Tessera client needs: one per page or app, shared by every query. */
export function createCache(): InMemoryCache {
  return new InMemoryCache({ typePolicies });
}
