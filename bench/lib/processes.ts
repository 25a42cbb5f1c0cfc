/**
 * Every server of the bench runs in a child process of its own, started here and only here: the
 * children report their port over IPC once they listen, and none outlives the bench (ended on
 * completion, on failure, on Ctrl-C; a child whose parent vanished exits by itself, see
 * servers/child.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
const STDERR_KEPT = 4_000;

/**
 * Runs `script` (a path from the repository root) with `env` added to this process's environment and
 * resolves once it has announced its port. Its standard output goes to /dev/null (the access log is
 * written, as in production, but nobody reads it); standard error is kept for the failure message.
 * The one place that knows how a server is launched: TypeScript through tsx today.
 */
export function startServer(name: string, script: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  return new Promise<Server>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} (${script}) ${why}\n${stderr}`));
    }
    const early = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited (${code ?? signal}) before it was ready`);
    child.once('exit', early);
    child.on('message', (message: { port?: number }) => {
      if (typeof message?.port !== 'number') return;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ name, url: `http://127.0.0.1:${message.port}`, pid: child.pid!, stop: () => stopChild(child, exited) });
    });
  });
}

/** SIGTERM, then SIGKILL if it has not ended within two seconds. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(killer);
}

/** Ends every child still running, immediately: what a failure or an interrupted bench must do. */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** Children are killed whatever way the bench ends; Ctrl-C and SIGTERM end it with their usual status. */
export function killChildrenOnExit(): void {
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping the servers\n`);
      killAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}
