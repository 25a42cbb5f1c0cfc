import { join } from 'node:path';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { scalars } from './scalars.ts';

/**
 * The codegen client preset's target for an example client in `dir`: the operations written with
 * `graphql()` in `dir/src` become typed documents (`TypedDocumentNode`s, which Apollo Client and urql
 * take as they are) in `dir/src/__generated__/` (git-ignored; `npm run codegen` regenerates it before `tsc`).
 */
export function typedDocumentsTarget(dir: string): CodegenConfig['generates'] {
  const generated = join(dir, 'src/__generated__/');
  return {
    [generated]: {
      documents: [join(dir, 'src/**/*.ts'), `!${generated}**`],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
        emitLegacyCommonJSImports: false,
        scalars,
      },
    },
  };
}
