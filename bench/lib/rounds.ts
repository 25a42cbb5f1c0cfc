/**
 * The timed part: a warm-up of every target, then rounds running every target in turn, so a slow
 * moment of the machine hits all of them alike. Each run also notes the CPU its server and the load
 * generator (this process) used, and what everything else on the machine used: a server well below
 * 100% of a core was not the bottleneck; other work on the machine makes the figures unreliable.
 */
import type { Servers } from './answers.ts';
import type { WriteMixWorld } from './data.ts';
import { measure } from './load.ts';
import { cpuSeconds, machineBusySeconds, sampleRss } from './proc.ts';
import type { Answer } from './requests.ts';
import { summarize, type RoundResult, type Settings, type TargetSummary } from './report.ts';
import { targets, type Target } from './targets.ts';
import { measureWriteMix } from './write-mix.ts';

/** CPU seconds used so far by the target's server, and by all the bench's servers together. */
function serversCpu(servers: Servers, target: Target) {
  const all = Object.values(servers).reduce((sum, server) => sum + cpuSeconds(server.pid), 0);
  return { target: cpuSeconds(servers[target.server].pid), all };
}

async function runTarget(
  target: Target,
  servers: Servers,
  answers: Map<string, Answer>,
  world: WriteMixWorld,
  seconds: number,
): Promise<RoundResult> {
  const server = servers[target.server];
  const serversBefore = serversCpu(servers, target);
  const clientBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const rss = sampleRss(server.pid);
  const start = performance.now();
  const result = await (
    target.request
      ? measure(target.name, server.url, target.request, answers.get(target.name)!.body, seconds)
      : measureWriteMix(server.url, world, seconds)
  ).finally(() => rss.stop());
  const wall = (performance.now() - start) / 1000;
  const clientUsage = process.cpuUsage(clientBefore);
  const serversAfter = serversCpu(servers, target);
  const clientSeconds = (clientUsage.user + clientUsage.system) / 1e6;
  const percent = (seconds: number) => Math.max(0, (seconds / wall) * 100);
  return {
    ...result,
    serverCpuPercent: percent(serversAfter.target - serversBefore.target),
    clientCpuPercent: percent(clientSeconds),
    otherCpuPercent: percent(machineBusySeconds() - machineBefore - (serversAfter.all - serversBefore.all) - clientSeconds),
    serverRssMb: rss.maxMb(),
  };
}

export async function timeTargets(
  servers: Servers,
  answers: Map<string, Answer>,
  world: WriteMixWorld,
  settings: Settings,
  log: (line: string) => void,
): Promise<TargetSummary[]> {
  log(`Warming up (${settings.warmUpSeconds} s per target)...`);
  for (const target of targets) await runTarget(target, servers, answers, world, settings.warmUpSeconds);
  const rounds = new Map<string, RoundResult[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= settings.rounds; round += 1) {
    const line: string[] = [];
    for (const target of targets) {
      const result = await runTarget(target, servers, answers, world, settings.roundSeconds);
      rounds.get(target.name)!.push(result);
      line.push(`${target.name} ${result.requestsPerSecond.toFixed(0)}`);
    }
    log(`Round ${round}/${settings.rounds}: ${line.join(', ')}`);
  }
  return targets.map((t) => summarize(t, rounds.get(t.name)!));
}
