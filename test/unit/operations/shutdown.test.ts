/** The shutdown sequence's decisions, with a fake clock and a fake exit (test/api/operations/shutdown.test.ts runs the real process). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { exitOnSignals, signalExitCode } from '../../../src/shutdown.ts';

function harness(close: () => Promise<void>, timeoutMs = 1000, drainWindowMs?: number) {
  const exits: number[] = [];
  const lines: string[] = [];
  const log = {
    info: (_: object, message: string) => lines.push(`info: ${message}`),
    error: (_: object, message: string) => lines.push(`error: ${message}`),
  };
  const stopReadiness = vi.fn(() => {
    lines.push('readiness stopped');
  });
  // No real signals: the test calls the handler itself.
  const signal = exitOnSignals({ close, timeoutMs, log, exit: (code) => exits.push(code), stopReadiness, drainWindowMs }, []);
  return { signal, exits, lines, stopReadiness };
}

/** A close that ends when the test says so. */
function pendingClose() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { close: vi.fn(() => done), finish };
}

describe('exitOnSignals', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('drains, then exits 0', async () => {
    const pending = pendingClose();
    const { signal, exits, lines } = harness(pending.close);
    signal('SIGTERM');
    expect(pending.close).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(exits).toEqual([]);
    pending.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([0]);
    expect(lines).toEqual([
      'readiness stopped',
      'info: shutting down: draining in-flight requests and webhook deliveries',
      'info: shut down cleanly',
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(exits).toEqual([0]);
  });

  it('with a drain window, fails readiness at once and closes only once the window has passed; the timeout counts from there', async () => {
    const pending = pendingClose();
    const { signal, exits, lines, stopReadiness } = harness(pending.close, 1000, 3000);
    signal('SIGTERM');
    expect(stopReadiness).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      'readiness stopped',
      'info: shutting down: /readyz answers 503; still serving for SHUTDOWN_DRAIN_MS (3000 ms) while load balancers stop sending',
    ]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(pending.close).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(pending.close).toHaveBeenCalledTimes(1);
    expect(lines.at(-1)).toBe('info: shutting down: draining in-flight requests and webhook deliveries');
    await vi.advanceTimersByTimeAsync(999);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(stopReadiness).toHaveBeenCalledTimes(1);
  });

  it('exits at once on a second signal during the drain window, without closing', async () => {
    const pending = pendingClose();
    const { signal, exits } = harness(pending.close, 1000, 3000);
    signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(1000);
    signal('SIGTERM');
    expect(exits).toEqual([143]);
    expect(pending.close).not.toHaveBeenCalled();
  });

  it('exits 1 with a log line when the drain outlasts the timeout', async () => {
    const { signal, exits, lines } = harness(pendingClose().close, 1000);
    signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(999);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe('error: shutdown did not finish within SHUTDOWN_TIMEOUT_MS (1000 ms): exiting');
  });

  it('exits at once on a second signal, with the code of that signal', async () => {
    const pending = pendingClose();
    const { signal, exits, lines } = harness(pending.close);
    signal('SIGTERM');
    signal('SIGINT');
    expect(exits).toEqual([130]);
    expect(lines.at(-1)).toBe('error: second signal while shutting down: exiting without waiting for in-flight work');
    expect(pending.close).toHaveBeenCalledTimes(1);
    expect(signalExitCode('SIGTERM')).toBe(143);
  });

  it('exits 1 when closing fails', async () => {
    const { signal, exits, lines } = harness(() => Promise.reject(new Error('disk gone')));
    signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([1]);
    expect(lines.at(-1)).toBe('error: shutdown failed');
  });

  it('reads SHUTDOWN_TIMEOUT_MS: 10 s by default, 100 ms to 10 minutes', () => {
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '2500' }).SHUTDOWN_TIMEOUT_MS).toBe(2500);
    for (const bad of ['50', '600001', 'soon', '1.5']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    }
  });

  it('reads SHUTDOWN_DRAIN_MS: 5 s by default in production, 0 otherwise, 0 to 5 minutes', () => {
    const production = { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };
    expect(loadConfig(production).SHUTDOWN_DRAIN_MS).toBe(5_000);
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_MS: '0' }).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(loadConfig({}).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '2500' }).SHUTDOWN_DRAIN_MS).toBe(2500);
    for (const bad of ['-1', '300001', 'soon', '1.5']) {
      expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: bad })).toThrow(/SHUTDOWN_DRAIN_MS/);
    }
  });
});
