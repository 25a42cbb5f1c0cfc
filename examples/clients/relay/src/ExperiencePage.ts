/**
 * An experience page's data, as Relay wants it: the page's query spreads the card's fragment, which
 * refetches itself through `node(id:)` (`@refetchable`); each language of the experience is an object of
 * its own (its own `id`), so the page in two languages is two records in Relay's store.
 * relay-compiler turns these into artifacts (`__generated__/relay/`); nothing here runs as is.
 */
import { graphql } from 'relay-runtime';

export const ExperiencePageQuery = graphql`
  query ExperiencePageQuery($brandId: UUID!, $id: UUID!, $language: Locale) {
    experience(brandId: $brandId, id: $id, language: $language) {
      id
      ...ExperiencePage_experience
    }
    experienceReviews(experienceId: $id, first: 3) {
      edges {
        node {
          id
          rating
          experience {
            id
            title
          }
          hostedBy {
            id
            firstName
          }
        }
      }
    }
  }
`;

export const ExperiencePageFragment = graphql`
  fragment ExperiencePage_experience on Experience @refetchable(queryName: "ExperiencePageRefetchQuery") {
    id
    title
    headline
    contentLanguage
    hostedBy {
      id
      firstName
    }
  }
`;
