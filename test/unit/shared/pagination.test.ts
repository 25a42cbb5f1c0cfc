import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, numberedPages, pageNumber, pageSize } from '../../../src/domain/shared/pagination.ts';

describe('numberedPages', () => {
  it.each([
    // page, limit, total -> first, previous, next, last
    [1, 10, 47, [1, 1, 2, 5]],
    [3, 10, 47, [1, 2, 4, 5]],
    [5, 10, 47, [1, 4, 5, 5]],
    [9, 10, 47, [1, 5, 5, 5]],
    [1, 10, 50, [1, 1, 2, 5]],
    [1, 10, 51, [1, 1, 2, 6]],
    [1, 20, 0, [1, 1, 1, 1]],
    [4, 20, 0, [1, 1, 1, 1]],
    [1, 100, 100, [1, 1, 1, 1]],
  ])('page %i of %i per page with %i items', (page, limit, total, expected) => {
    const { first, previous, next, last } = numberedPages(page, limit, total);
    expect([first, previous, next, last]).toEqual(expected);
  });
});

describe('page parameters', () => {
  it.each([[1], [20], [100]])('accepts a size of %i', (size) => expect(pageSize(size, 'limit')).toBe(size));
  it('defaults the size to 20 and the page to 1', () => {
    expect(pageSize(undefined, 'first')).toBe(20);
    expect(pageSize(null, 'first')).toBe(20);
    expect(pageNumber(undefined, 'page')).toBe(1);
  });
  it.each([[0], [101], [2.5], [-1]])('rejects a size of %s naming the field', (size) => {
    expect(() => pageSize(size, 'first')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'first' } }));
  });
  it.each([[0], [-1], [1.5]])('rejects page %s', (page) => {
    expect(() => pageNumber(page, 'page')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'page' } }));
  });
});

describe('cursors', () => {
  it('round-trips its parts through an opaque base64url string', () => {
    const cursor = encodeCursor(['2026-03-01T10:00:00.000Z', 'a/b+c']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 2, 'after')).toEqual(['2026-03-01T10:00:00.000Z', 'a/b+c']);
  });
  it.each([
    ['garbage!!'],
    [''],
    [encodeCursor(['one'])],
    [Buffer.from('{"a":1}').toString('base64url')],
    [Buffer.from('[1,2]').toString('base64url')],
  ])('rejects %j naming the field', (cursor) => {
    expect(() => decodeCursor(cursor, 2, 'after')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: 'after' } }),
    );
  });
});
