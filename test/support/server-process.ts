/**
 * The real server (`src/main.ts`) as a child process, as `npm start` runs it: its own port (PORT=0,
 * read back from the line it prints), a database file, signals and exit codes of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr (pino's JSON lines included). */
  output(): string;
  /** Resolves when the process has ended. */
  exited: Promise<Exit>;
  /** Resolves once a printed line contains `text`; fails after `timeoutMs`. */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<void>;
}

/**
 * Starts `node --import tsx src/main.ts` on `DATABASE_URL` (no npx in between, so signals reach the
 * server itself) and resolves once it listens. `env` adds to or overrides the defaults (development
 * mode, info logs, an ephemeral port on 127.0.0.1).
 */
export async function startServerProcess(databaseFile: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: databaseFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const waitForOutput = (text: string | RegExp, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const found = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
      const finish = (error?: Error) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => found() && finish();
      const timer = setTimeout(() => finish(new Error(`timed out waiting for "${String(text)}"; output so far:\n${output}`)), timeoutMs);
      listeners.add(check);
      void exited.then(
        ({ code, signal }) =>
          !found() && finish(new Error(`server exited (${code ?? signal}) before printing "${String(text)}":\n${output}`)),
      );
      check();
    });

  await waitForOutput(/Tessera is listening on http:\/\/127\.0\.0\.1:\d+/);
  const port = Number(/Tessera is listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => output, exited, waitForOutput };
}

/** Ends a server a test left running (SIGKILL: it is not under test any more). */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}
