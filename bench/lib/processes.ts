/**
 * Every server of the bench runs in a child process of its own, started here and only here: Tessera
 * compiled, as production runs it (`node dist/main.js`, ready once /readyz answers), the others
 * through tsx, reporting their port over IPC. None outlives the bench (ended on completion, on
 * failure, on Ctrl-C; a child whose parent vanished exits by itself, see servers/child.ts and
 * servers/exit-with-parent.mjs).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
const STDERR_KEPT = 4_000;

/** How a server is launched: a TypeScript file run through tsx, announcing its port over IPC (servers/child.ts). */
type Launch = { script: string } | { compiled: string; port: number; cwd: string; nodeArgs: readonly string[] };

/** Where and how a compiled server runs: another build's folder (bench/compare.ts), extra node flags (--cpu-prof). */
export interface CompiledOptions {
  /** The build's root folder (its dist/ and node_modules/); this repository by default. */
  cwd?: string;
  /** Flags given to node before the entry point. */
  nodeArgs?: readonly string[];
  timeoutMs?: number;
}

/**
 * Runs `script` (a path from the repository root) with `env` added to this process's environment and
 * resolves once it has announced its port. Its standard output goes to /dev/null (the access log is
 * written, as in production, but nobody reads it); standard error is kept for the failure message.
 */
export function startServer(name: string, script: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Server> {
  return launch(name, { script }, env, timeoutMs);
}

/**
 * Runs a compiled entry point (`dist/main.js`) as production does, on `PORT`, and resolves once its
 * GET /readyz answers 200. A preload makes it end with the bench (servers/exit-with-parent.mjs).
 */
export async function startCompiledServer(
  name: string,
  entry: string,
  env: Record<string, string>,
  { cwd = root, nodeArgs = [], timeoutMs = 60_000 }: CompiledOptions = {},
): Promise<Server> {
  return launch(name, { compiled: entry, port: await freePort(), cwd, nodeArgs }, env, timeoutMs);
}

/** `npm run build`: the compiled server the bench runs. Throws with the build's output if it fails. */
export function buildCompiled(cwd = root): void {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}

/** A port nobody listens on now (the system's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/readyz`)).status === 200;
  } catch {
    return false;
  }
}

function launch(name: string, how: Launch, env: Record<string, string>, timeoutMs: number): Promise<Server> {
  const compiled = 'compiled' in how;
  // The preload is this repository's, whatever build runs (an older one may not have it).
  const args = compiled
    ? [...how.nodeArgs, '--import', pathToFileURL(join(root, 'bench/servers/exit-with-parent.mjs')).href, how.compiled]
    : ['--import', 'tsx', how.script];
  const child = spawn(process.execPath, args, {
    cwd: compiled ? how.cwd : root,
    env: { ...process.env, ...env, ...(compiled ? { PORT: String(how.port), HOST: '127.0.0.1' } : {}) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const what = compiled ? how.compiled : how.script;
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  return new Promise<Server>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    function fail(why: string) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${name} (${what}) ${why}\n${stderr}`));
    }
    const early = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited (${code ?? signal}) before it was ready`);
    child.once('exit', early);
    const started = (port: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', early);
      resolve({ name, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child, exited) });
    };
    if (compiled) {
      const poll = async () => {
        while (!settled) {
          if (await ready(`http://127.0.0.1:${how.port}`)) return started(how.port);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      void poll();
    } else {
      child.on('message', (message: { port?: number }) => {
        if (typeof message?.port === 'number') started(message.port);
      });
    }
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
