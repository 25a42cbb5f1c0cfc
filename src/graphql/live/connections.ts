/**
 * The live connections of one gateway: how many each key (or publishable client) holds open, and a way
 * to close them all with one code when the gateway shuts down.
 */
import type { Principal } from '../../domain/access/principal.ts';

export type CloseConnection = (code: number, reason: string) => void;

/**
 * Who a connection counts against: a secret key's own count, or, for a publishable key shared by every
 * browser of a shop, the key and the client's address (as the rate limit counts them).
 */
export function connectionOwner(principal: Principal, address: string): string {
  return principal.kind === 'publishable' ? `client:${principal.keyId}:${address}` : `key:${principal.keyId}`;
}

export class LiveConnections {
  private readonly perOwner = new Map<string, number>();
  private readonly open = new Set<CloseConnection>();
  private running = 0;

  constructor(private readonly maxPerOwner: number) {}

  /** Counts one more connection of `owner`; null when it already holds as many as it may. Call the answer once it closes. */
  admit(owner: string): (() => void) | null {
    const held = this.perOwner.get(owner) ?? 0;
    if (held >= this.maxPerOwner) return null;
    this.perOwner.set(owner, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perOwner.get(owner) ?? 1) - 1;
      if (left === 0) this.perOwner.delete(owner);
      else this.perOwner.set(owner, left);
    };
  }

  /** Keeps `close` until the answer is called, for `closeAll`. */
  track(close: CloseConnection): () => void {
    this.open.add(close);
    return () => this.open.delete(close);
  }

  closeAll(code: number, reason: string): void {
    for (const close of [...this.open]) close(code, reason);
    this.open.clear();
  }

  /** Open connections (WebSockets and event streams). */
  get size(): number {
    return this.open.size;
  }

  /** Counts a subscription whose watch is running; call the answer once it ends. */
  subscriptionStarted(): () => void {
    this.running += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running -= 1;
    };
  }

  /** Subscriptions running on this gateway, over either transport. */
  get subscriptions(): number {
    return this.running;
  }
}

/** A WebSocket close reason is at most 123 bytes of UTF-8 (RFC 6455): longer ones are cut at a character. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 122);
  while (Buffer.byteLength(`${cut}…`) > 123) cut = cut.slice(0, -1);
  return `${cut}…`;
}
