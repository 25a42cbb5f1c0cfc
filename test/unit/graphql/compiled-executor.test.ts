/**
 * The compiled executor (src/graphql/compiled-executor.ts) against graphql-js `execute`, on a schema made
 * to fail: generated documents where a field fails (throws, rejects, returns an Error or a null where a
 * non-null is due) first, in the middle or last among root fields, nested under nullable and non-null
 * parents, inside lists whose items settle in every order, and in mutations, whose fields must also run
 * (or not) exactly as graphql-js runs them. Answers must be identical: data, and errors by message, path
 * and location.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, parse, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compiledExecutor } from '../../../src/graphql/compiled-executor.ts';

/** How a field fails: thrown, a rejected promise, an Error returned, or null (an error where non-null). */
const failures = ['THROW', 'REJECT', 'ERROR', 'NULL'] as const;
type Failure = (typeof failures)[number];

/** After `turns` turns of the event loop. */
async function tick(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
}

function failing(how: Failure): unknown {
  switch (how) {
    case 'THROW':
      throw new Error('thrown');
    case 'REJECT':
      return tick(1).then(() => Promise.reject(new Error('rejected')));
    case 'ERROR':
      return new Error('returned');
    case 'NULL':
      return null;
  }
}

interface Context {
  ran: string[];
}

/**
 * A list item as the spec says: `v` a value, `p<n>` a promise of one after n turns of the event loop,
 * `r<n>` a promise rejected after n turns, `x<n>` one rejected with a string, `e` an Error, `n` null.
 */
function item(spec: string, index: number): unknown {
  const wait = Number(spec.slice(1) || 0);
  const value = { id: index };
  switch (spec[0]) {
    case 'v':
      return value;
    case 'p':
      return tick(wait).then(() => value);
    case 'r':
      return tick(wait).then(() => Promise.reject(new Error(`item ${index} failed`)));
    case 'x':
      return tick(wait).then(() => Promise.reject(`item ${index} refused`));
    case 'e':
      return new Error(`item ${index} is an error`);
    default:
      return null;
  }
}

const schema = makeExecutableSchema<Context>({
  typeDefs: /* GraphQL */ `
    enum Failure {
      THROW
      REJECT
      ERROR
      NULL
    }
    type Item {
      id: Int!
      name: String
      fails(how: Failure!): String
      failsNonNull(how: Failure!): String!
      child(how: Failure): Item
      childNonNull(how: Failure): Item!
    }
    type Query {
      ok: Item
      fails(how: Failure!): Item
      failsNonNull(how: Failure!): Item!
      list(items: [String!]!): [Item]
      listNonNull(items: [String!]!): [Item!]!
      listAsync(items: [String!]!): [Item]
      nestedList(items: [String!]!): Item
    }
    type Mutation {
      step(name: String!, how: Failure): Item!
      stepNullable(name: String!, how: Failure): Item
    }
  `,
  resolvers: {
    Item: {
      name: (item: { id: number }) => `item ${item.id}`,
      fails: (_, { how }) => failing(how),
      failsNonNull: (_, { how }) => failing(how),
      child: (item: { id: number }, { how }) => (how ? failing(how) : { id: item.id * 10 }),
      childNonNull: (item: { id: number }, { how }) => (how ? failing(how) : { id: item.id * 10 }),
    },
    Query: {
      ok: () => ({ id: 1 }),
      fails: (_, { how }) => failing(how),
      failsNonNull: (_, { how }) => failing(how),
      list: (_, { items }) => (items as string[]).map(item),
      listNonNull: (_, { items }) => (items as string[]).map(item),
      listAsync: async (_, { items }) => (items as string[]).map(item),
      nestedList: () => ({ id: 7 }),
    },
    Mutation: {
      step: (_, { name, how }, context: Context) => {
        context.ran.push(name);
        return how ? failing(how) : { id: context.ran.length };
      },
      stepNullable: (_, { name, how }, context: Context) => {
        context.ran.push(name);
        return how ? failing(how) : { id: context.ran.length };
      },
    },
  },
});

const compiled = compiledExecutor(schema);

/** An item that fails at once (an Error, a null) in a list with a promise. */
function syncFailureAndPromise(items: string[]): boolean {
  return items.some((spec) => /^[prx]/.test(spec)) && items.some((spec) => spec === 'e' || spec === 'n');
}

/** An answer as compared: errors by path, message and location, in a stable order. */
function comparable(result: ExecutionResult) {
  const errors = result.errors?.map((error) => ({ message: error.message, path: error.path, locations: error.locations }));
  errors?.sort((a, b) => JSON.stringify([a.path, a.message]).localeCompare(JSON.stringify([b.path, b.message])));
  return { data: result.data, errors };
}

async function bothRun(query: string, operationName?: string) {
  const document = parse(query);
  const jit: Context = { ran: [] };
  const js: Context = { ran: [] };
  const request = { query, operationName, variables: {} };
  const fromCompiled = await compiled({ document, request, operationName: null, context: jit } as never);
  const fromGraphqlJs = await execute({ schema, document, contextValue: js, operationName });
  return { compiled: { ...comparable(fromCompiled), ran: jit.ran }, graphqlJs: { ...comparable(fromGraphqlJs), ran: js.ran } };
}

async function expectSame(query: string) {
  const { compiled, graphqlJs } = await bothRun(query);
  expect(compiled, query).toEqual(graphqlJs);
}

/** Three root fields, the failing one at `position`. */
function rootDocuments(kind: 'query' | 'mutation'): string[] {
  const documents: string[] = [];
  for (const how of failures) {
    for (const position of [0, 1, 2]) {
      for (const nonNull of [false, true]) {
        const fields = [0, 1, 2].map((i) => {
          if (kind === 'mutation') {
            const field = nonNull ? 'step' : 'stepNullable';
            return `f${i}: ${field}(name: "f${i}"${i === position ? `, how: ${how}` : ''}) { id name }`;
          }
          if (i !== position) return `f${i}: ok { id name }`;
          return `f${i}: ${nonNull ? 'failsNonNull' : 'fails'}(how: ${how}) { id }`;
        });
        documents.push(`${kind} { ${fields.join(' ')} }`);
      }
    }
  }
  return documents;
}

describe('the compiled executor answers as graphql-js', () => {
  it('when a root field of a query fails first, in the middle or last', async () => {
    for (const query of rootDocuments('query')) await expectSame(query);
  });

  it('when a field fails under nullable and non-null parents', async () => {
    for (const how of failures) {
      await expectSame(`{ ok { id fails(how: ${how}) name } }`);
      await expectSame(`{ ok { id failsNonNull(how: ${how}) name } }`);
      await expectSame(`{ ok { child { failsNonNull(how: ${how}) } name } }`);
      await expectSame(`{ ok { childNonNull { failsNonNull(how: ${how}) } name } f: ok { id } }`);
      await expectSame(`{ ok { childNonNull(how: ${how}) { id } } f: ok { id } }`);
      await expectSame(`{ ok { child { childNonNull(how: ${how}) { id } } } f: ok { id } }`);
    }
  });

  it('when items of a list fail, settling in every order', async () => {
    const alphabet = ['v', 'p1', 'p3', 'r0', 'r2', 'e', 'n'];
    // Every list of three items of the alphabet, and longer ones where failures settle after successes.
    const lists: string[][] = [];
    for (const a of alphabet) for (const b of alphabet) for (const c of alphabet) lists.push([a, b, c]);
    lists.push(
      ['p1', 'p1', 'p1', 'r3', 'r3'],
      ['r0', 'r0', 'p3', 'p3', 'p3'],
      ['p3', 'r1', 'p3', 'x1', 'p3', 'r3', 'v'],
      ['x0', 'v', 'p1'],
    );
    for (const items of lists) {
      const spec = JSON.stringify(items);
      await expectSame(`{ list(items: ${spec}) { id name } }`);
      await expectSame(`{ listAsync(items: ${spec}) { id child { name } } }`);
      // graphql-js 16 leaves the other items' rejections unhandled when an item fails at once in a list of
      // non-null items (it throws before awaiting them): those lists are left out here.
      if (!syncFailureAndPromise(items)) await expectSame(`{ listNonNull(items: ${spec}) { id } ok { id } }`);
    }
  });

  it('when a field of a list item fails', async () => {
    for (const how of failures) {
      await expectSame(`{ list(items: ["v", "p1", "v"]) { id fails(how: ${how}) } }`);
      await expectSame(`{ list(items: ["v", "p1", "v"]) { id failsNonNull(how: ${how}) } }`);
      const items = how === 'REJECT' ? '["p1", "v", "p4"]' : '["v", "v"]';
      await expectSame(`{ listNonNull(items: ${items}) { id failsNonNull(how: ${how}) } ok { id } }`);
    }
  });

  it('when a field of a mutation fails: the same answer, and the same fields run', async () => {
    for (const mutation of rootDocuments('mutation')) await expectSame(mutation);
  });

  it('differs in one way, stated: a field that fails inside an object already nulled by a failed non-null sibling is reported too', async () => {
    // graphql-js stops running an object's fields at the first non-null failure and reports that one;
    // graphql-jit has run the siblings and reports each field error raised. The data is the same; the
    // errors list holds one more entry, at a path the answer does not hold. (A nullable field's null is no error.)
    for (const how of failures.filter((failure) => failure !== 'NULL')) {
      const query = `{ s: ok { id failsNonNull(how: ${how}) fails(how: ${how}) } }`;
      const { compiled, graphqlJs } = await bothRun(query);
      expect(compiled.data, query).toEqual({ s: null });
      expect(graphqlJs.data, query).toEqual({ s: null });
      expect(graphqlJs.errors?.map((error) => error.path)).toEqual([['s', 'failsNonNull']]);
      expect(compiled.errors?.map((error) => error.path)).toEqual([
        ['s', 'fails'],
        ['s', 'failsNonNull'],
      ]);
    }
  });

  it('stops a mutation at a non-null field that failed, as graphql-js does', async () => {
    const { compiled: answer } = await bothRun(`mutation { a: step(name: "a", how: THROW) { id } b: step(name: "b") { id } }`);
    expect(answer).toEqual({ data: null, errors: [{ message: 'thrown', path: ['a'], locations: [{ line: 1, column: 12 }] }], ran: ['a'] });
  });

  it('answers the operation the request names, and an error when the document has none of that name', async () => {
    const query = `query A { ok { id } } query B { f: ok { name } }`;
    for (const name of ['A', 'B', 'C', '', undefined]) {
      const { compiled, graphqlJs } = await bothRun(query, name);
      expect(compiled, String(name)).toEqual(graphqlJs);
    }
    const { compiled: unknown } = await bothRun(`query A { ok { id } }`, 'B');
    expect(unknown).toEqual({ data: undefined, errors: [{ message: 'Unknown operation named "B".' }], ran: [] });
  });
});
