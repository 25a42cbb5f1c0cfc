/** The iterator every live watch returns (src/domain/live/stream.ts): bounded, and ended at once by its consumer. */
import { describe, expect, it } from 'vitest';
import { LiveStream } from '../../../src/domain/live/stream.ts';

describe('LiveStream', () => {
  it('keeps one pending state, merged with the next, for a consumer reading late', async () => {
    const stream = new LiveStream<number[]>(() => {});
    stream.offer(() => [1]);
    stream.offer((waiting) => [...(waiting ?? []), 2]);
    stream.offer((waiting) => [...(waiting ?? []), 3]);
    expect(stream.pending).toBe(1);
    expect(await stream.next()).toStrictEqual({ value: [1, 2, 3], done: false });
    stream.offer((waiting) => [...(waiting ?? []), 4]);
    expect(await stream.next()).toStrictEqual({ value: [4], done: false });
  });

  it('hands a value to a consumer already waiting, and ends a waiting consumer at once on return()', async () => {
    let cleanups = 0;
    const stream = new LiveStream<string>(() => (cleanups += 1));
    const waiting = stream.next();
    stream.push('a');
    expect(await waiting).toStrictEqual({ value: 'a', done: false });
    const pending = stream.next();
    expect(await stream.return()).toStrictEqual({ value: undefined, done: true });
    expect(await pending).toStrictEqual({ value: undefined, done: true });
    expect(cleanups).toBe(1);
    stream.push('late');
    expect(await stream.next()).toStrictEqual({ value: undefined, done: true });
    await stream.return();
    expect(cleanups).toBe(1);
  });

  it('throws its failure once, dropping what waited, then ends; pulls until the puller says it is done', async () => {
    const failed = new LiveStream<number>(() => {});
    failed.push(1);
    failed.fail(new Error('too slow'));
    await expect(failed.next()).rejects.toThrow('too slow');
    expect(await failed.next()).toStrictEqual({ value: undefined, done: true });

    const pages = [[1, 2], [3], []];
    const pulled = new LiveStream<number>(
      () => {},
      async () => {
        const page = pages.shift()!;
        for (const n of page) pulled.push(n);
        return page.length > 0;
      },
    );
    const read: number[] = [];
    for (let i = 0; i < 3; i += 1) read.push((await pulled.next()).value as number);
    const live = pulled.next();
    pulled.push(4);
    read.push((await live).value as number);
    expect(read).toStrictEqual([1, 2, 3, 4]);
    expect(pages).toStrictEqual([]);
  });
});
