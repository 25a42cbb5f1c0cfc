/**
 * The operations the client sends, written as a frontend would. `npm run codegen` turns each into a
 * typed document (src/__generated__/): a field the schema lacks, or a wrong variable, fails to compile.
 */
import { graphql } from './__generated__/gql.ts';

export const ExperienceQuery = graphql(`
  query ClientExperience($brandId: UUID!, $id: UUID!) {
    experience(brandId: $brandId, id: $id) {
      id
      uuid
      title
      currency
      priceTiers {
        name
        price
      }
    }
  }
`);

export const AvailabilityQuery = graphql(`
  query ClientAvailability($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
    availability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
      id
      uuid
      startDateTime
      timezone
      duration
      remaining
    }
  }
`);

export const CheckoutMutation = graphql(`
  mutation ClientCheckout($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
    createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
      totalNetAmount
      paymentIntentSecret
      cart {
        id
        uuid
        status
        bookings {
          id
          uuid
          status
          amount
        }
      }
    }
  }
`);

export const BookingQuery = graphql(`
  query ClientBooking($id: UUID!) {
    booking(id: $id) {
      id
      uuid
      confirmationCode
      status
      amount
      amountRefunded
      currency
      paymentMethod
      event {
        startDateTime
        timezone
      }
      participants {
        id
        uuid
        firstName
        priceTierName
        cancelledAt
      }
    }
  }
`);

export const CancelBookingsMutation = graphql(`
  mutation ClientCancelBookings($input: CancelBookingsInput!) {
    cancelBookings(input: $input) {
      items {
        id
        uuid
        status
        amount
        amountRefunded
      }
      errors {
        index
        code
        message
        field
      }
    }
  }
`);
