/**
 * The GraphQL root fields a publishable key may use, with the use each belongs to
 * (src/domain/access/publishable.ts). Every other root field answers FORBIDDEN to a publishable key.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { assertKeyMayUse, type PublishableUse } from '../domain/access/publishable.ts';
import type { MutationResolvers, QueryResolvers, Resolvers, SubscriptionResolvers } from './__generated__/resolvers-types.ts';
import type { GraphQLContext } from './context.ts';

export const publishableQueryFields: Partial<Record<keyof QueryResolvers, PublishableUse>> = {
  brandSettings: 'catalogue',
  featuredListings: 'catalogue',
  experience: 'catalogue',
  experienceReviews: 'catalogue',
  hosts: 'catalogue',
  availability: 'availability',
  viewer: 'identity',
  // Open to the key; each type a publishable key may fetch is checked again (resolvers/nodes.ts).
  node: 'catalogue',
  nodes: 'catalogue',
};

export const publishableMutationFields: Partial<Record<keyof MutationResolvers, PublishableUse>> = {
  createPaymentIntent: 'checkout',
  joinWaitlist: 'waitlist',
  leaveWaitlist: 'waitlist',
};

/**
 * Live updates, as strict as the operation each mirrors: availability, a waitlist entry as leaving it is
 * (the page that joined knows its id), and the cart the page checked out, which the domain opens only to
 * the holder of its current payment intent's client secret (src/domain/live/carts.ts); the events feed
 * needs a secret key, as its query does.
 */
export const publishableSubscriptionFields: Partial<Record<keyof SubscriptionResolvers, PublishableUse>> = {
  sessionAvailability: 'availability',
  cartUpdated: 'checkout',
  waitlistEntryUpdated: 'waitlist',
};

type RootResolver = GraphQLFieldResolver<unknown, GraphQLContext>;

function guarded(name: string, use: PublishableUse | undefined, resolve: RootResolver): RootResolver {
  return (parent, args, ctx, info) => {
    if (ctx.principal) assertKeyMayUse(ctx.principal, use, `use ${name}`);
    return resolve(parent, args, ctx, info);
  };
}

/** Wraps each Query and Mutation resolver, and each subscription's `subscribe`, so a publishable key reaches only the fields listed above. */
export function guardRootFields(resolvers: Resolvers): void {
  const roots = [
    [resolvers.Query, publishableQueryFields],
    [resolvers.Mutation, publishableMutationFields],
  ] as const;
  for (const [fields, uses] of roots) {
    if (!fields) continue;
    const table = fields as Record<string, RootResolver>;
    for (const [name, resolve] of Object.entries(table)) {
      table[name] = guarded(name, (uses as Record<string, PublishableUse | undefined>)[name], resolve);
    }
  }
  const subscriptions = (resolvers.Subscription ?? {}) as Record<string, { subscribe: RootResolver }>;
  for (const [name, field] of Object.entries(subscriptions)) {
    const use = (publishableSubscriptionFields as Record<string, PublishableUse | undefined>)[name];
    subscriptions[name] = { ...field, subscribe: guarded(name, use, field.subscribe) };
  }
}
