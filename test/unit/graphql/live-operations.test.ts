import { describe, expect, it } from 'vitest';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { parse, type ExecutionResult } from 'graphql';
import pino from 'pino';
import { DomainError } from '../../../src/domain/shared/errors.ts';
import { liveOperations } from '../../../src/graphql/live/operation.ts';
import { graphqlProtections } from '../../../src/graphql/protections/settings.ts';

/** `counts`: the watches of the schema's other field, ended (their cleanup run) so far. */
const watches = { ended: 0 };

/** `ticks`: a watch that sends one value, then fails as a slow consumer's does; `counts` counts until ended. */
const schema = makeExecutableSchema({
  typeDefs: 'type Query { ok: Int } type Subscription { ticks: Int counts: Int }',
  resolvers: {
    Subscription: {
      ticks: {
        subscribe: async function* () {
          yield 1;
          throw new DomainError('SLOW_CONSUMER', 'More events waited unread than this stream keeps: subscribe again from the last cursor.');
        },
        resolve: (tick: number) => tick,
      },
      counts: {
        subscribe: async function* () {
          try {
            for (let n = 1; ; n++) yield n;
          } finally {
            watches.ended += 1;
          }
        },
        resolve: (n: number) => n,
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

describe('a live stream its subscriber leaves', () => {
  it('ends its watch at once and answers nothing more', async () => {
    const context = { caller: () => ({}) };
    const stream = (await operations.subscribe({
      schema,
      document: parse('subscription { counts }'),
      contextValue: context,
    })) as AsyncGenerator<ExecutionResult>;
    expect(await stream.next()).toEqual({ value: { data: { counts: 1 } }, done: false });
    expect(await stream.next()).toEqual({ value: { data: { counts: 2 } }, done: false });
    expect(watches.ended).toBe(0);
    expect(await stream.return(undefined)).toEqual({ value: undefined, done: true });
    expect(watches.ended).toBe(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
