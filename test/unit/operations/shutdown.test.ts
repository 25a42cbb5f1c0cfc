/** The shutdown sequence's decisions, with a fake clock and a fake exit (test/api/operations/shutdown.test.ts runs the real process). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { exitOnSignals, signalExitCode } from '../../../src/shutdown.ts';

function harness(close: () => Promise<void>, timeoutMs = 1000) {
  const exits: number[] = [];
  const lines: string[] = [];
  const log = {
    info: (_: object, message: string) => lines.push(`info: ${message}`),
    error: (_: object, message: string) => lines.push(`error: ${message}`),
  };
  // No real signals: the test calls the handler itself.
  const signal = exitOnSignals({ close, timeoutMs, log, exit: (code) => exits.push(code) }, []);
  return { signal, exits, lines };
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
    expect(lines).toEqual(['info: shutting down: draining in-flight requests and webhook deliveries', 'info: shut down cleanly']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(exits).toEqual([0]);
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
});
