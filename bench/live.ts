/**
 * `npm run bench:live [-- <seconds per HTTP run>]`: the live rows alone (lib/live.ts), on a demo database
 * of their own, without the rest of the bench. `npm run bench` measures them too, beside the other rows.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildMainDatabase, tempDir } from './lib/data.ts';
import { formatLiveReport, liveEnv, measureLive } from './lib/live.ts';
import { buildCompiled, killChildrenOnExit } from './lib/processes.ts';
import { startTessera } from './lib/servers.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  killChildrenOnExit();
  const dir = tempDir();
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  log('Compiling Tessera (npm run build)...');
  buildCompiled();
  const database = join(dir, 'main.sqlite');
  const world = await buildMainDatabase(database, new Date());
  const server = await startTessera('Tessera (live)', database, liveEnv);
  const live = await measureLive(server, world, Number(process.argv[2] ?? 5), log).finally(() => server.stop());
  log(`\n${formatLiveReport(live)}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`\nbench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
  process.exit();
});
