import { ProcessorError } from '../../src/domain/payments/processor.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';

export interface RefundCall {
  intentReference: string;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
}

/**
 * The sandbox with knobs for tests: it records every refund call, can wait before answering (a random
 * delay, or until `release()`), and can decline (`ProcessorError`) or fail without an answer (any Error).
 */
export class TestProcessor extends SandboxProcessor {
  readonly refundCalls: RefundCall[] = [];
  /** Milliseconds to wait in each refund. */
  delay: () => number = () => 0;
  /** Thrown by refunds instead of answering. */
  failure: Error | null = null;
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  /** Refunds wait until `release()`. */
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open?.();
    this.gate = null;
  }

  decline(): void {
    this.failure = new ProcessorError('card_declined');
  }

  override async refund(input: RefundCall) {
    this.refundCalls.push(input);
    const ms = this.delay();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.gate) await this.gate;
    if (this.failure) throw this.failure;
    return super.refund(input);
  }
}
