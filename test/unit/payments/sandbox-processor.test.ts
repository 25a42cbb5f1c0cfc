/**
 * The sandbox processor's idempotency memory (src/adapters/sandbox-processor.ts): a key repeated within a
 * day gets the first intent or refund back; the most recent 100,000 keys are kept; and an empty sandbox
 * holds no room for them up front (it held 4.4 MB a key store, 9 MB of the gateway's heap at start).
 */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';

const intent = (sandbox: SandboxProcessor, key: string) => sandbox.createIntent({ idempotencyKey: key });

describe('the sandbox processor', () => {
  it('answers a repeated idempotency key with the first intent and refund, a new key with new ones', async () => {
    const sandbox = new SandboxProcessor();
    const first = await intent(sandbox, 'k1');
    expect(first.reference).toMatch(/^pi_sbx_[0-9a-f]{24}$/);
    expect(await intent(sandbox, 'k1')).toEqual(first);
    expect((await intent(sandbox, 'k2')).reference).not.toBe(first.reference);
    const refund = await sandbox.refund({ intentReference: first.reference, amountMinor: 500, idempotencyKey: 'r1' });
    expect(await sandbox.refund({ intentReference: first.reference, amountMinor: 500, idempotencyKey: 'r1' })).toEqual(refund);
  });

  it('keeps the most recent 100,000 keys: the oldest is forgotten when one more comes', async () => {
    const sandbox = new SandboxProcessor();
    const oldest = await intent(sandbox, 'key-0');
    const second = await intent(sandbox, 'key-1');
    for (let i = 2; i < 100_000; i += 1) await intent(sandbox, `key-${i}`);
    expect(await intent(sandbox, 'key-0')).toEqual(oldest);
    // key-0 was just used again: key-1 is now the least recent, and goes when the 100,001st key comes.
    await intent(sandbox, 'key-100000');
    expect((await intent(sandbox, 'key-1')).reference).not.toBe(second.reference);
    expect(await intent(sandbox, 'key-0')).toEqual(oldest);
  });

  it('takes no room for its 100,000 keys before it holds them', () => {
    const before = getHeapStatistics().used_heap_size;
    const sandboxes = Array.from({ length: 20 }, () => new SandboxProcessor());
    const grown = getHeapStatistics().used_heap_size - before;
    expect(sandboxes).toHaveLength(20);
    // Room allocated up front would be about 3 MB a sandbox in the heap alone (60 MB for these 20).
    expect(grown).toBeLessThan(5 * 1024 * 1024);
  });
});
