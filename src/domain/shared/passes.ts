/**
 * Background work that runs in passes: one at once, then every `intervalMs`, never two at a time (a tick
 * while a pass runs is skipped). A pass that throws is logged and the next tick tries again. The timer
 * does not keep the process alive. The returned function stops starting passes and resolves once the
 * pass in flight, if any, has finished.
 */
export function runInPasses(pass: () => Promise<unknown>, intervalMs: number, onFailure: (error: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = pass()
      .catch(onFailure)
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
