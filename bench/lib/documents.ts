/** The GraphQL documents the bench sends, as a frontend app would write them. */

const picture = 'id uri';
const host = `id profilePicture { ${picture} } firstName lastName emailAddress description allowOverlappingBookings`;

/** T1: featured listings with every Listing field and every field of the types under it. */
export const featuredListingsQuery = `query FeaturedListings {
  featuredListings {
    id kind productLine title summary slug advertisedPrice startingPrice hidePrice pricePerType
    maxParticipants order isExclusive isUnlisted experienceId resourceGroupCollectionId
    medias { id type kind altText links { url type resolution } }
    bookingAvailabilityMode
    category { id name }
    eventDates { startDate endDate }
    hostedBy { ${host} }
    pointsEligible
    rating { rating total }
    vibes { id name }
  }
}`;

const person = `id firstName lastName fullName emailAddress phoneNumber profilePicture { ${picture} }`;

/** T3: an experience page: the usual scalar fields, its questions, prices and first reviews. */
export const experienceQuery = `query ExperiencePage($brandId: UUID!, $id: UUID!) {
  experience(brandId: $brandId, id: $id) {
    id title slug headline description
    vibes { id name }
    category { id name }
    location { longitude latitude name timezoneId additionalInfo }
    maxParticipantsCount sessionDurationMinutes currency
    coverPicture { ${picture} }
    bookingAvailabilityMode providedItems healthAndSafety isExclusive isBookable
    hostedBy { ${host} }
    paymentMethods
    priceTiers { name price }
    taxes { name amount }
    ratings { rating recommendability total }
    minimumRequiredToBook maximumAllowedToBook
    customQuestions {
      customQuestionId prompt fieldType
      options { key value }
      termsAndConditions { label mediaId isOverrided mediaUrl }
      config {
        experienceId experienceQuestionId isRequired isActive order scope conditionsMatchType
        conditions { rule conditionKey conditionValue }
      }
    }
    reviews(first: 20) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges {
        cursor
        node {
          id rating recommendability text reviewedAt experiencedDate
          reviewer { ${person} }
          hostedBy { ${person} }
          experience { id title }
        }
      }
    }
  }
}`;

/** T5 (quote) and the write mix's hold: the same mutation; a hold also reads back what it created. */
export const quoteMutation = `mutation Quote($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
  createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) { totalNetAmount paymentIntentSecret }
}`;

export const holdMutation = `mutation Hold($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
  createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
    totalNetAmount paymentIntentSecret
    cart { id status bookings { id status amount participants { id } } }
  }
}`;

/** The write mix's cancellation and refund: one item each. */
export const cancelMutation = `mutation Cancel($input: CancelBookingsInput!) {
  cancelBookings(input: $input) {
    items { id status amount amountRefunded participants { id cancelledAt } }
    errors { index bookingId code message field }
  }
}`;
