import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typedDocumentsTarget } from '../typed-documents.ts';

/** The Apollo Client example's typed documents (the root codegen.ts adds this target to its own). */
export const apolloClientTarget = typedDocumentsTarget(dirname(fileURLToPath(import.meta.url)));
