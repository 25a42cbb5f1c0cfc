/**
 * A storefront's operations, written as a frontend would; `npm run codegen` turns each into a typed
 * document (src/__generated__/) that Apollo Client takes as it is.
 */
import { graphql } from './__generated__/gql.ts';

export const FeaturedListingsQuery = graphql(`
  query ApolloFeaturedListings($locale: Locale, $contentVersion: ContentVersion) {
    featuredListings(locale: $locale, contentVersion: $contentVersion) {
      id
      title
      summary
      contentLanguage
      experienceId
      advertisedPrice
      rating {
        rating
        total
      }
    }
  }
`);

export const ExperienceQuery = graphql(`
  query ApolloExperience($brandId: UUID!, $id: UUID!, $language: Locale) {
    experience(brandId: $brandId, id: $id, language: $language) {
      id
      title
      headline
      contentLanguage
      currency
      location {
        name
        timezoneId
      }
      ratings {
        rating
        total
      }
      priceTiers {
        name
        price
      }
    }
  }
`);

/** The same experience as a map would show it: other fields of its location and ratings. */
export const ExperienceMapQuery = graphql(`
  query ApolloExperienceMap($brandId: UUID!, $id: UUID!, $language: Locale) {
    experience(brandId: $brandId, id: $id, language: $language) {
      id
      location {
        latitude
        longitude
        additionalInfo
      }
      ratings {
        recommendability
      }
    }
  }
`);

export const AvailabilityQuery = graphql(`
  query ApolloAvailability($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
    availability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
      id
      startDateTime
      capacity
      remaining
    }
  }
`);

export const HoldMutation = graphql(`
  mutation ApolloHold($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
    createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
      totalNetAmount
      paymentIntentSecret
      cart {
        id
        status
        bookings {
          id
          uuid
          status
          amount
          session {
            id
            remaining
          }
        }
      }
    }
  }
`);

export const BookingQuery = graphql(`
  query ApolloBooking($id: UUID!) {
    booking(id: $id) {
      id
      status
      amount
      amountRefunded
      confirmationCode
    }
  }
`);

export const CancelMutation = graphql(`
  mutation ApolloCancel($input: CancelBookingsInput!) {
    cancelBookings(input: $input) {
      items {
        id
        status
        amountRefunded
        session {
          id
          remaining
        }
      }
      errors {
        index
        code
        message
      }
    }
  }
`);
