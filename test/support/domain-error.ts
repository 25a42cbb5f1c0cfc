import { DomainError } from '../../src/domain/shared/errors.ts';

/** The DomainError `run` throws (fails the test when it throws nothing or something else). */
export function domainErrorOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

/** `{ code, field }` of the DomainError `run` throws: the part of an error a client acts on. */
export function codeAndField(run: () => unknown): { code: string; field: unknown } {
  const error = domainErrorOf(run);
  return { code: error.code, field: error.details?.field };
}
