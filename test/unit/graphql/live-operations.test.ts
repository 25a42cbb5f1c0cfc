import { describe, expect, it } from 'vitest';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse, type ExecutionResult } from 'graphql';
import pino from 'pino';
import { DomainError } from '../../../src/domain/shared/errors.ts';
import { liveOperations } from '../../../src/graphql/live/operation.ts';
import { graphqlProtections } from '../../../src/graphql/protections/settings.ts';

/** A watch that sends one value, then fails as a slow consumer's does. */
const schema = makeExecutableSchema({
  typeDefs: 'type Query { ok: Int } type Subscription { ticks: Int }',
  resolvers: {
    Subscription: {
      ticks: {
        subscribe: async function* () {
          yield 1;
          throw new DomainError('SLOW_CONSUMER', 'More events waited unread than this stream keeps: subscribe again from the last cursor.');
        },
        resolve: (tick: number) => tick,
      },
    },
  },
});
const operations = liveOperations(schema, graphqlProtections({ production: false }), pino({ level: 'silent' }));

describe('a live stream whose watch fails', () => {
  it("ends with one last result carrying the error's code, as the protocols deliver it, instead of throwing", async () => {
    const context = { caller: () => ({}) };
    const stream = await operations.subscribe({ schema, document: parse('subscription { ticks }'), contextValue: context });
    const results: ExecutionResult[] = [];
    for await (const result of stream as AsyncIterable<ExecutionResult>) results.push(result);
    expect(results[0]).toEqual({ data: { ticks: 1 } });
    expect(operations.format(results[1]!.errors!, 'req-1')).toEqual([
      {
        message: 'More events waited unread than this stream keeps: subscribe again from the last cursor.',
        extensions: { code: 'SLOW_CONSUMER' },
      },
    ]);
    expect(results).toHaveLength(2);
  });
});
