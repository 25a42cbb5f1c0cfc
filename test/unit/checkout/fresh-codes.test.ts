/** A checkout's fresh confirmation codes: asked about together, once, and drawn again only where taken. */
import { expect, it, vi } from 'vitest';
import type { Stores } from '../../../src/domain/shared/database.ts';

const drawn = vi.hoisted(() => ({ queue: [] as string[] }));
vi.mock('../../../src/domain/checkout/confirmation-codes.ts', () => ({ generateConfirmationCode: () => drawn.queue.shift()! }));
const { FreshCodes } = await import('../../../src/domain/checkout/write.ts');

function storeTaking(taken: string[]) {
  const asked: string[][] = [];
  const tx = {
    checkout: {
      confirmationCodesInUse: async (_brandId: string, codes: readonly string[]) => {
        asked.push([...codes]);
        return new Set(codes.filter((code) => taken.includes(code)));
      },
    },
  } as unknown as Stores;
  return { tx, asked };
}

it('asks about every code in one question on first use, and not again', async () => {
  drawn.queue = ['AAAA2222', 'BBBB3333', 'CCCC4444'];
  const { tx, asked } = storeTaking([]);
  const codes = new FreshCodes(tx, 'brand-1', 3);
  expect([await codes.next(), await codes.next(), await codes.next()]).toStrictEqual(['AAAA2222', 'BBBB3333', 'CCCC4444']);
  expect(asked).toStrictEqual([['AAAA2222', 'BBBB3333', 'CCCC4444']]);
  await expect(codes.next()).rejects.toThrow('more confirmation codes than it drew');
});

it('draws again only the codes found taken, and never hands out a code twice', async () => {
  // The second draw repeats a free code (skipped) before giving a new one.
  drawn.queue = ['AAAA2222', 'TAKEN999', 'AAAA2222', 'DDDD5555'];
  const { tx, asked } = storeTaking(['TAKEN999']);
  const codes = new FreshCodes(tx, 'brand-1', 2);
  expect([await codes.next(), await codes.next()]).toStrictEqual(['AAAA2222', 'DDDD5555']);
  expect(asked).toStrictEqual([['AAAA2222', 'TAKEN999'], ['DDDD5555']]);
});

it('gives up after 10 draws that all find their codes taken', async () => {
  drawn.queue = Array.from({ length: 10 }, (_, i) => `TAKEN00${i}`);
  const { tx, asked } = storeTaking(drawn.queue.slice());
  await expect(new FreshCodes(tx, 'brand-1', 1).next()).rejects.toThrow('No free confirmation code for brand brand-1 after 10 attempts');
  expect(asked).toHaveLength(10);
});

it('takes the answer about its first codes from a question asked with another, and asks only about codes drawn again', async () => {
  drawn.queue = ['AAAA2222', 'TAKEN999', 'DDDD5555'];
  const { tx, asked } = storeTaking(['TAKEN999']);
  const codes = new FreshCodes(tx, 'brand-1', 2);
  expect(codes.first).toStrictEqual(['AAAA2222', 'TAKEN999']);
  codes.answered(new Set(['TAKEN999']));
  expect([await codes.next(), await codes.next()]).toStrictEqual(['AAAA2222', 'DDDD5555']);
  expect(asked).toStrictEqual([['DDDD5555']]);
});
