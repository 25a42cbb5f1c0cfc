/**
 * Tessera's request plugins run as one listener (src/graphql/request-plugins.ts): each event calls the
 * listeners that have its hook as Apollo Server would, and Apollo Server runs the merged plugin as it ran
 * the plugins one by one.
 */
import { ApolloServer, type ApolloServerPlugin, type BaseContext, type GraphQLRequestListener } from '@apollo/server';
import { describe, expect, it } from 'vitest';
import { requestPluginsInOne } from '../../../src/graphql/request-plugins.ts';

type Listener = GraphQLRequestListener<BaseContext>;
const plugin = (listener: Listener | undefined): ApolloServerPlugin => ({ requestDidStart: async () => listener });

/** The merged plugin's listener for one request, with a context Apollo's would have at that point. */
async function mergedListener(listeners: Array<Listener | undefined>): Promise<Listener> {
  const merged = requestPluginsInOne(listeners.map(plugin));
  return (await merged.requestDidStart!({} as never)) as Listener;
}

describe('requestPluginsInOne', () => {
  it('starts every listener of an event before any has settled, in the order given', async () => {
    const log: string[] = [];
    const release: Array<() => void> = [];
    const waiting = (name: string): Listener => ({
      didResolveOperation: () =>
        new Promise<void>((resolve) => {
          log.push(`${name} started`);
          release.push(() => {
            log.push(`${name} settled`);
            resolve();
          });
        }),
    });
    const listener = await mergedListener([waiting('a'), {}, waiting('b'), undefined, waiting('c')]);
    const event = listener.didResolveOperation!({} as never);
    expect(log).toEqual(['a started', 'b started', 'c started']);
    for (const settle of release.reverse()) settle();
    await event;
    expect(log).toEqual(['a started', 'b started', 'c started', 'c settled', 'b settled', 'a settled']);
  });

  it('fails an event with the first listener that fails, as Promise.all does', async () => {
    const refused = new Error('over the cost budget');
    const listener = await mergedListener([
      { didResolveOperation: async () => undefined },
      { didResolveOperation: () => Promise.reject(refused) },
    ]);
    await expect(listener.didResolveOperation!({} as never)).rejects.toBe(refused);
  });

  it('asks for a response in turn until one answers, and no further', async () => {
    const asked: string[] = [];
    const answer = { http: { status: 200 }, body: { kind: 'single', singleResult: { data: { cached: true } } } };
    const listener = await mergedListener([
      { responseForOperation: async () => (asked.push('a'), null) },
      { responseForOperation: async () => (asked.push('b'), answer as never) },
      { responseForOperation: async () => (asked.push('c'), null) },
    ]);
    expect(await listener.responseForOperation!({} as never)).toBe(answer);
    expect(asked).toEqual(['a', 'b']);
  });

  it('ends a stage in the reverse order it started, with what the stage ended with', async () => {
    const ended: string[] = [];
    const ending = (name: string): Listener => ({
      validationDidStart: async () => async (errors?: readonly Error[]) => {
        ended.push(`${name}: ${errors?.map((e) => e.message).join() ?? 'none'}`);
      },
    });
    const listener = await mergedListener([ending('a'), { validationDidStart: async () => undefined }, ending('b')]);
    const end = await listener.validationDidStart!({} as never);
    await end!([new Error('Cannot query field "nope"')]);
    expect(ended).toEqual(['b: Cannot query field "nope"', 'a: Cannot query field "nope"']);
  });

  it("tells each execution listener the end, and nests field hooks as Apollo's own dispatch does", async () => {
    const log: string[] = [];
    const execution = (name: string): Listener => ({
      executionDidStart: async () => ({
        executionDidEnd: async () => void log.push(`${name} ended`),
        willResolveField: () => {
          log.push(`${name} field`);
          return () => void log.push(`${name} field done`);
        },
      }),
    });
    const listener = await mergedListener([execution('a'), execution('b')]);
    const started = (await listener.executionDidStart!({} as never))!;
    const fieldDone = started.willResolveField!({} as never);
    fieldDone!(null, 'value');
    await started.executionDidEnd!();
    expect(log).toEqual(['b field', 'a field', 'a field done', 'b field done', 'b ended', 'a ended']);
  });

  it('gives no listener when no plugin has one, and the only one as it is', async () => {
    expect(await mergedListener([undefined, undefined])).toBeUndefined();
    const only: Listener = { willSendResponse: async () => undefined };
    expect(await mergedListener([undefined, only])).toBe(only);
  });

  it('refuses a plugin with server hooks, which Apollo Server must see for itself', () => {
    const landingPage: ApolloServerPlugin = { serverWillStart: async () => ({ renderLandingPage: async () => ({ html: '' }) }) };
    expect(() => requestPluginsInOne([landingPage])).toThrow('a plugin with serverWillStart cannot be merged');
  });

  it('runs in Apollo Server as the plugins did one by one: every hook of every listener, once', async () => {
    const calls: string[] = [];
    const watching = (name: string): ApolloServerPlugin => ({
      async requestDidStart() {
        calls.push(`${name} requestDidStart`);
        return {
          async didResolveOperation({ operationName }) {
            calls.push(`${name} didResolveOperation ${operationName}`);
          },
          async willSendResponse() {
            calls.push(`${name} willSendResponse`);
          },
        };
      },
    });
    const errors: ApolloServerPlugin = {
      async requestDidStart() {
        return {
          async didEncounterErrors({ errors }) {
            calls.push(`errors ${errors.map((e) => e.message).join()}`);
          },
        };
      },
    };
    const server = new ApolloServer({
      typeDefs: 'type Query { hello: String, broken: String }',
      resolvers: {
        Query: {
          hello: () => 'world',
          broken: () => {
            throw new Error('no');
          },
        },
      },
      plugins: [requestPluginsInOne([watching('a'), errors, watching('b')])],
    });
    await server.start();
    try {
      const response = await server.executeOperation({ query: 'query Greeting { hello broken }' });
      expect(response.body.kind === 'single' && response.body.singleResult.data).toEqual({ hello: 'world', broken: null });
    } finally {
      await server.stop();
    }
    expect(calls).toEqual([
      'a requestDidStart',
      'b requestDidStart',
      'a didResolveOperation Greeting',
      'b didResolveOperation Greeting',
      'errors no',
      'a willSendResponse',
      'b willSendResponse',
    ]);
  });
});
