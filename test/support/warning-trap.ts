import { format } from 'node:util';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';

/**
 * Every console.warn and console.error of the file's tests, where client libraries print what their
 * development builds find wrong (Apollo's "Cache data may be lost when replacing the location field of a
 * Experience object", relay-runtime's "Expected __typename to be consistent"): each test fails when it
 * leaves one, unless it took them itself (`take()`).
 */
export function trapWarnings() {
  const caught: string[] = [];
  // The libraries' messages are printf-style (`%s`, `%o`): the line as a console would show it.
  const record = (...args: unknown[]) => {
    caught.push(format(...args));
  };
  beforeAll(() => {
    vi.spyOn(console, 'warn').mockImplementation(record);
    vi.spyOn(console, 'error').mockImplementation(record);
  });
  afterEach(() => {
    expect(caught.splice(0)).toEqual([]);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  return {
    /** The warnings so far, which then no longer fail the test. */
    take: () => caught.splice(0),
  };
}
