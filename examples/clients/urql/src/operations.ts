/**
 * A catalogue page's queries; `npm run codegen` makes each a typed document (src/__generated__/) that
 * urql takes as it is, so results and variables are typed from the schema.
 */
import { graphql } from './__generated__/gql.ts';

export const CatalogueQuery = graphql(`
  query UrqlCatalogue($locale: Locale) {
    featuredListings(locale: $locale) {
      id
      title
      contentLanguage
      advertisedPrice
      experienceId
    }
  }
`);

export const ExperienceQuery = graphql(`
  query UrqlExperience($brandId: UUID!, $id: UUID!) {
    experience(brandId: $brandId, id: $id) {
      id
      title
      currency
      location {
        name
        timezoneId
      }
      coverPicture {
        uri
      }
    }
  }
`);

export const AvailabilityQuery = graphql(`
  query UrqlAvailability($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
    availability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
      id
      startDateTime
      remaining
    }
  }
`);
