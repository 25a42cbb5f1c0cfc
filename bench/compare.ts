/**
 * `npm run bench:compare -- <git ref> [--rounds N] [--duration S] [--targets T1,T2,T1u] [--threshold 0.05]
 * [--confidence 0.95] [--fail-below 0.85] [--repeat K] [--b <ref>]`: the A/B guard. A is the ref, built in a temporary git worktree (its
 * node_modules hard-linked from this one's when package-lock.json is the same, `npm ci` otherwise);
 * B is this working tree, or with --b <ref> another ref checked out the same way (this tree may then
 * change while it runs). Both are compiled (`npm run build`, codegen included), each gets the same
 * seeded database (built by its own code, with the same "today"), and each runs as its own server
 * process on 127.0.0.1 (one with the response cache, one without for the uncached targets). The load is
 * the bench's (lib/load.ts: autocannon, 64 connections, every body checked), interleaved: round r runs
 * every target on A then B, the next round B then A, so a slow moment of the machine hits both alike.
 * Prints per target each build's mean rate, the ratio B/A with its confidence interval (95 % unless
 * --confidence says otherwise; paired on the rounds, lib/paired.ts) and a flag when the interval excludes
 * 1 and the change exceeds the threshold.
 * --repeat K runs K comparisons on the same builds (how often an unchanged build is flagged).
 * Exits 1 with --fail-below R when a target is flagged slower with a ratio under R; 2 when the
 * comparison itself failed. The worktree, its databases and the servers go on every way out, Ctrl-C
 * included.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildMainDatabase } from './lib/data.ts';
import { measure } from './lib/load.ts';
import { buildCompiled, killChildrenOnExit, root, type Server } from './lib/processes.ts';
import { hasGraphqlErrors, send, type Answer } from './lib/requests.ts';
import { startTessera } from './lib/servers.ts';
import { targets, type Target } from './lib/targets.ts';
import { paired, verdict } from './lib/paired.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '5' },
    targets: { type: 'string', default: 'T1,T2,T1u' },
    threshold: { type: 'string', default: '0.05' },
    confidence: { type: 'string', default: '0.95' },
    'fail-below': { type: 'string' },
    'warm-up': { type: 'string', default: '2' },
    repeat: { type: 'string', default: '1' },
    b: { type: 'string' },
  },
});

const COMPARABLE = targets.filter((t) => t.request && (t.server === 'tessera' || t.server === 'uncached'));

function git(args: string[], cwd = root): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

function timed<T>(what: string, work: () => T): T {
  const started = Date.now();
  const result = work();
  log(`  ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result;
}

interface Build {
  label: 'A' | 'B';
  description: string;
  dir: string;
  servers: { tessera?: Server; uncached?: Server };
  answers: Map<string, Answer>;
}

interface LockFile {
  packages?: Record<string, { version?: string; resolved?: string; integrity?: string }>;
}

/**
 * Whether this tree's node_modules serve A: every package of A's lock file is in this tree's at the same
 * place (`node_modules/x/node_modules/y`), version and integrity. Packages A does not list are extra
 * files A never imports. The usual case (A older by a few commits, or adding a package since): true.
 */
function installedServes(lockA: LockFile, lockB: LockFile): boolean {
  const ours = lockB.packages ?? {};
  return Object.entries(lockA.packages ?? {}).every(([place, entry]) => {
    if (place === '' || !place.includes('node_modules/')) return true;
    const mine = ours[place];
    return mine !== undefined && mine.version === entry.version && mine.integrity === entry.integrity && mine.resolved === entry.resolved;
  });
}

/** The ref checked out in a detached worktree under `dir`, its node_modules in place. */
function checkOut(commit: string, dir: string): void {
  git(['worktree', 'add', '--detach', '--quiet', dir, commit]);
  const lock = (folder: string) => JSON.parse(readFileSync(join(folder, 'package-lock.json'), 'utf8')) as LockFile;
  if (installedServes(lock(dir), lock(root))) {
    // Hard links instead of copies: seconds instead of minutes of npm ci (measured: 2 s against 350 s on the shared machine).
    timed("node_modules hard-linked (every package of A's lock file is installed here at the same version)", () => {
      const copy = spawnSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')], { encoding: 'utf8' });
      if (copy.status !== 0) throw new Error(`cp -al node_modules: ${copy.stderr}`);
    });
  } else {
    timed("npm ci (A's lock file has packages or versions this tree does not)", () => {
      const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
      if (ci.status !== 0) throw new Error(`npm ci in ${dir} failed:\n${ci.stdout}${ci.stderr}`);
    });
  }
}

/**
 * The bench database built by the build's own code (its migrations, its demo data) with `now` as
 * "today"; when that build has no bench/lib/data.ts to do it, a copy of `fallback`.
 */
function seedWithBuild(dir: string, file: string, now: Date, fallback: string): void {
  const script = `const m = await import(${JSON.stringify(join(dir, 'bench/lib/data.ts'))}); await m.buildMainDatabase(process.argv[1], new Date(process.argv[2]));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, file, now.toISOString()], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    log(
      `  ${dir}: its own seeding failed, it uses a copy of this tree's database:\n    ${run.stderr.trim().split('\n').slice(-3).join('\n    ')}`,
    );
    rmSync(file, { force: true });
    copyFileSync(fallback, file);
  }
}

async function startBuild(build: Build, database: string, chosen: Target[]): Promise<void> {
  const options = { cwd: build.dir };
  if (chosen.some((t) => t.server === 'tessera'))
    build.servers.tessera = await startTessera(`${build.label} Tessera`, database, {}, options);
  if (chosen.some((t) => t.server === 'uncached'))
    build.servers.uncached = await startTessera(
      `${build.label} Tessera, no response cache`,
      database,
      { RESPONSE_CACHE_MAX_BYTES: '0' },
      options,
    );
  for (const target of chosen) {
    const answer = await send(build.servers[target.server as 'tessera' | 'uncached']!.url, target.request!);
    const text = answer.body.toString('utf8');
    if (answer.status !== 200 || hasGraphqlErrors(JSON.parse(text)))
      throw new Error(`${build.label} ${target.name} answered ${answer.status}: ${text.slice(0, 300)}`);
    build.answers.set(target.name, answer);
  }
}

const run = (build: Build, target: Target, seconds: number) =>
  measure(
    `${build.label} ${target.name}`,
    build.servers[target.server as 'tessera' | 'uncached']!.url,
    target.request!,
    build.answers.get(target.name)!.body,
    seconds,
  );

const pad = (text: string, width: number) => text.padStart(width);
const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)} %`;

interface Once {
  a: Build;
  b: Build;
  chosen: Target[];
  rounds: number;
  seconds: number;
  threshold: number;
  confidence: number;
  failBelow: number | undefined;
}

/** One comparison: the interleaved rounds and the table; which targets it flagged, whether one failed. */
async function compareOnce({
  a,
  b,
  chosen,
  rounds,
  seconds,
  threshold,
  confidence,
  failBelow,
}: Once): Promise<{ failed: boolean; flagged: string[] }> {
  const load = loadavg()[0]!;
  const rates = new Map(chosen.map((t) => [t.name, { A: [] as number[], B: [] as number[] }]));
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    const line: string[] = [];
    for (const target of chosen) {
      for (const build of order) {
        const result = await run(build, target, seconds);
        rates.get(target.name)![build.label].push(result.requestsPerSecond);
        line.push(`${build.label}-${target.name} ${result.requestsPerSecond.toFixed(0)}`);
      }
    }
    log(`Round ${round + 1}/${rounds} (${order.map((x) => x.label).join(',')}): ${line.join(', ')}`);
  }

  log(
    `\nA = ${a.description}, B = ${b.description}\n${rounds} rounds of ${seconds} s per target and build, interleaved; load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after (2 cores: above ~2, other work shared the machine and the figures are noisy)\n`,
  );
  log(
    `${'target'.padEnd(8)}${pad('A req/s', 10)}${pad('B req/s', 10)}${pad('B/A', 8)}${pad(`${(confidence * 100).toFixed(0)} % CI`, 20)}  flag`,
  );
  let failed = false;
  const flagged: string[] = [];
  for (const target of chosen) {
    const { A, B } = rates.get(target.name)!;
    const c = paired(A, B, confidence);
    const flag = verdict(c, threshold);
    const below = flag === 'slower' && failBelow !== undefined && c.ratio < failBelow;
    if (below) failed = true;
    if (flag) flagged.push(target.name);
    log(
      `${target.name.padEnd(8)}${pad(c.meanA.toFixed(0), 10)}${pad(c.meanB.toFixed(0), 10)}${pad(c.ratio.toFixed(3), 8)}${pad(`${c.low.toFixed(3)} .. ${c.high.toFixed(3)}`, 20)}  ${flag ? `${flag.toUpperCase()} (${percent(c.ratio)})` : ''}${below ? ` below ${failBelow}` : ''}`,
    );
  }
  log(`\nFlagged: the interval excludes 1 and the change exceeds ${(threshold * 100).toFixed(0)} %.`);
  return { failed, flagged };
}

async function main(): Promise<number> {
  const ref = positionals[0];
  if (!ref)
    throw new Error('usage: npm run bench:compare -- <git ref> [--rounds N] [--duration S] [--targets T1,T2,T1u] [--fail-below 0.85]');
  const rounds = Number(values.rounds);
  const seconds = Number(values.duration);
  const warmUp = Number(values['warm-up']);
  const threshold = Number(values.threshold);
  const confidence = Number(values.confidence);
  const failBelow = values['fail-below'] === undefined ? undefined : Number(values['fail-below']);
  if (!(rounds >= 2) || !(seconds > 0) || !(threshold >= 0) || !(confidence > 0 && confidence < 1))
    throw new Error('--rounds must be at least 2, --duration and --threshold positive, --confidence between 0 and 1');
  const names = values.targets.split(',').map((name) => name.trim());
  const chosen = names.map((name) => {
    const target = COMPARABLE.find((t) => t.name === name);
    if (!target) throw new Error(`unknown target ${name}: one of ${COMPARABLE.map((t) => t.name).join(', ')}`);
    return target;
  });

  killChildrenOnExit();
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = mkdtempSync(join(tmpdir(), 'tessera-compare-'));
  const worktree = join(dir, 'a');
  // On every way out (after the servers are killed: killChildrenOnExit registered first).
  // Removing the folder and pruning is much faster than `git worktree remove` on a tree with node_modules.
  process.on('exit', () => {
    rmSync(dir, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root });
  });
  const head = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const commitB = values.b === undefined ? undefined : git(['rev-parse', '--verify', `${values.b}^{commit}`]);
  const a: Build = { label: 'A', description: `${ref} (${commit.slice(0, 9)})`, dir: worktree, servers: {}, answers: new Map() };
  const b: Build = {
    label: 'B',
    description: commitB ? `${values.b} (${commitB.slice(0, 9)})` : `this tree (${head}${dirty ? ' + uncommitted changes' : ''})`,
    dir: commitB ? join(dir, 'b') : root,
    servers: {},
    answers: new Map(),
  };

  log(`A: ${a.description}\nB: ${b.description}\nPreparing A in ${worktree}...`);
  timed('checked out', () => checkOut(commit, worktree));
  timed('A built (npm run build)', () => buildCompiled(worktree));
  if (commitB) timed('B checked out', () => checkOut(commitB, b.dir));
  timed('B built (npm run build)', () => buildCompiled(b.dir));
  const now = new Date();
  const dbB = join(dir, 'b.sqlite');
  const dbA = join(dir, 'a.sqlite');
  // This tree's code seeds; a build checked out seeds its own (this tree's database when it cannot).
  const ours = join(dir, 'ours.sqlite');
  await buildMainDatabase(ours, now);
  timed('databases seeded', () => {
    seedWithBuild(worktree, dbA, now, ours);
    if (commitB) seedWithBuild(b.dir, dbB, now, ours);
    else copyFileSync(ours, dbB);
  });

  await startBuild(a, dbA, chosen);
  await startBuild(b, dbB, chosen);
  for (const target of chosen) {
    if (!a.answers.get(target.name)!.body.equals(b.answers.get(target.name)!.body))
      log(`  note: ${target.name}'s answer differs between A and B (each is checked against its own)`);
  }

  log(`Warming up (${warmUp} s per target and build)...`);
  for (const target of chosen) for (const build of [a, b]) await run(build, target, warmUp);

  const repeats = Number(values.repeat);
  let failed = false;
  const flagged = new Map(chosen.map((t) => [t.name, 0]));
  for (let repeat = 1; repeat <= repeats; repeat += 1) {
    if (repeats > 1) log(`\nComparison ${repeat}/${repeats}`);
    const outcome = await compareOnce({ a, b, chosen, rounds, seconds, threshold, confidence, failBelow });
    failed ||= outcome.failed;
    for (const name of outcome.flagged) flagged.set(name, flagged.get(name)! + 1);
  }
  if (repeats > 1) log(`\nFlagged in ${repeats} comparisons: ${chosen.map((t) => `${t.name} ${flagged.get(t.name)}`).join(', ')}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`\nbench:compare failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
