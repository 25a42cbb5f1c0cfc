import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { scalars } from '../scalars.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Where the generated client goes (git-ignored: `npm run codegen` and the client's test regenerate it). */
export const generatedDir = join(here, 'src/__generated__/');

/**
 * The typed client: client-preset reads the operations written with `graphql()` in src/ and the schema,
 * and generates their result and variable types. `documentMode: 'string'` makes each document a typed
 * string, sent with plain fetch (no GraphQL runtime in the client).
 */
export const graphqlClientTarget: CodegenConfig['generates'] = {
  [generatedDir]: {
    documents: [join(here, 'src/**/*.ts'), `!${generatedDir}**`],
    preset: 'client',
    presetConfig: { fragmentMasking: false },
    config: {
      documentMode: 'string',
      enumsAsTypes: true,
      useTypeImports: true,
      strictScalars: true,
      emitLegacyCommonJSImports: false,
      scalars,
    },
  },
};

/** On its own (the client's test): the schema of this checkout. The root codegen.ts adds the target to its own. */
const config: CodegenConfig = { schema: join(here, '../../../schema/*.graphql'), generates: graphqlClientTarget, silent: true };
export default config;
