/** The bench's figures: a table for stdout, and the same as JSON in bench/results/latest.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { Measurement } from './load.ts';
import type { ScalingResult } from './scaling.ts';
import type { Target } from './targets.ts';

export interface RoundResult extends Measurement {
  /** CPU used by the target's server, in % of one core over the run. */
  serverCpuPercent: number;
  /** CPU used by the load generator (the bench process). */
  clientCpuPercent: number;
  /** CPU used by the machine's processes other than the bench and its servers (near 0 on a quiet machine). */
  otherCpuPercent: number;
  /** The target server's highest resident memory during the run. */
  serverRssMb: number;
}

export interface TargetSummary {
  name: string;
  what: string;
  unit: Target['unit'];
  /** Median of the rounds' rates. */
  perSecond: number;
  /** Latencies and CPU of the median round. */
  p50Ms: number;
  p99Ms: number;
  serverCpuPercent: number;
  clientCpuPercent: number;
  otherCpuPercent: number;
  /** Highest over all rounds. */
  serverRssMb: number;
  non2xx: number;
  rounds: RoundResult[];
}

export interface Check {
  name: string;
  value: number;
  goal: string;
  met: boolean;
}

export interface Settings {
  connections: number;
  rounds: number;
  roundSeconds: number;
  warmUpSeconds: number;
}

export function summarize(target: Target, rounds: RoundResult[]): TargetSummary {
  const byRate = [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const median = byRate[(byRate.length - 1) >> 1]!;
  return {
    name: target.name,
    what: target.what,
    unit: target.unit,
    perSecond: median.requestsPerSecond,
    p50Ms: median.p50Ms,
    p99Ms: median.p99Ms,
    serverCpuPercent: median.serverCpuPercent,
    clientCpuPercent: median.clientCpuPercent,
    otherCpuPercent: median.otherCpuPercent,
    serverRssMb: Math.max(...rounds.map((r) => r.serverRssMb)),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    rounds,
  };
}

/** Every target of the issue, met or missed. */
export function checks(summaries: TargetSummary[], rssMb: number, scaling: ScalingResult): Check[] {
  const rate = (name: string) => summaries.find((s) => s.name === name)!.perSecond;
  const p99 = (name: string) => summaries.find((s) => s.name === name)!.p99Ms;
  const atLeast = (name: string, value: number, goal: number): Check => ({ name, value, goal: `>= ${goal}`, met: value >= goal });
  const below = (name: string, value: number, goal: number): Check => ({ name, value, goal: `< ${goal}`, met: value < goal });
  return [
    atLeast('T1 / P2-T1', rate('T1') / rate('P2-T1'), 1.0),
    atLeast('T1 / P1-T1', rate('T1') / rate('P1-T1'), 2.5),
    atLeast('T1 / L-T1', rate('T1') / rate('L-T1'), 0.6),
    atLeast('T2 / L-T2', rate('T2') / rate('L-T2'), 0.7),
    atLeast('T3 / P2-T3', rate('T3') / rate('P2-T3'), 1.0),
    atLeast('T1u / P2-T1', rate('T1u') / rate('P2-T1'), 1.0),
    atLeast('T3u / P2-T3', rate('T3u') / rate('P2-T3'), 1.0),
    atLeast('T1u / L-T1', rate('T1u') / rate('L-T1'), 0.2),
    atLeast('T5 / P2-T5', rate('T5') / rate('P2-T5'), 1.0),
    atLeast('T7 / P2-T7', rate('T7') / rate('P2-T7'), 1.0),
    below('p99 T1 (ms)', p99('T1'), 25),
    below('p99 T2 (ms)', p99('T2'), 25),
    // Twice the 95 bookings/s of the bench that opened the performance issue (before the port and group commit).
    atLeast('T6 bookings/s', rate('T6'), 190),
    below("p99 T6, a booking's life (ms)", p99('T6'), 1000),
    below('Tessera max RSS (MB)', rssMb, 250),
    { name: `reviews page ${scaling.lastPage} / page 1`, value: scaling.pages.ratio, goal: '<= 1.5', met: scaling.pages.ratio <= 1.5 },
    {
      name: `experience, ${scaling.reviews} reviews / 1`,
      value: scaling.experiences.ratio,
      goal: '<= 1.5',
      met: scaling.experiences.ratio <= 1.5,
    },
    below('cancel 100 items / 1 item', scaling.cancel.ratio, 30),
  ];
}

export function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    ramGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

/** Other processes taking CPU while the bench timed: the figures then measure a smaller machine. */
function busyMachineWarning(summaries: TargetSummary[]): string[] {
  const others = summaries.map((s) => s.otherCpuPercent).sort((a, b) => a - b);
  const median = others[(others.length - 1) >> 1] ?? 0;
  if (median < 10) return [];
  return [
    `WARNING: other processes used ${median.toFixed(0)}% of a core (median) while the bench timed: the machine was not quiet, rerun when it is.`,
  ];
}

export const fixed = (n: number, digits = 1) => n.toFixed(digits);
export const row = (cells: string[], widths: number[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

export function formatReport(summaries: TargetSummary[], results: Check[], scaling: ScalingResult, settings: Settings): string {
  const info = machine();
  const widths = [8, 12, 10, 8, 8, 8, 8, 8, 8, 8, 0];
  const lines = [
    `Machine: ${info.cpu}, ${info.cores} cores, ${info.ramGb} GB RAM, Node ${info.node}, ${info.os}`,
    `Load: autocannon, ${settings.connections} connections, ${settings.rounds} rounds of ${settings.roundSeconds} s per target (after ${settings.warmUpSeconds} s warm-up), medians across rounds; p50/p99 of the median round`,
    '',
    row(['target', 'per second', 'unit', 'p50 ms', 'p99 ms', 'non-2xx', 'server', 'loadgen', 'others', 'RSS MB', '  what'], widths),
    ...summaries.map((s) => {
      const cpu = [s.serverCpuPercent, s.clientCpuPercent, s.otherCpuPercent].map((p) => `${fixed(p, 0)}%`);
      return row(
        [
          s.name,
          fixed(s.perSecond),
          s.unit,
          fixed(s.p50Ms),
          fixed(s.p99Ms),
          String(s.non2xx),
          ...cpu,
          fixed(s.serverRssMb, 0),
          `  ${s.what}`,
        ],
        widths,
      );
    }),
    `(CPU in % of one core, ${info.cores} cores in all: the target server, the load generator, processes not the bench's; RSS: the target server's highest)`,
    ...busyMachineWarning(summaries),
    '',
    `Scaling (sequential requests, medians): reviews page 1 ${fixed(scaling.pages.smallMs, 2)} ms, page ${scaling.lastPage} ${fixed(scaling.pages.largeMs, 2)} ms` +
      ` (${scaling.reviews} reviews); the experience with them ${fixed(scaling.experiences.largeMs, 2)} ms, one with a single review ${fixed(scaling.experiences.smallMs, 2)} ms; cancel 1 item ${fixed(scaling.cancel.smallMs, 2)} ms, 100 items ${fixed(scaling.cancel.largeMs, 2)} ms`,
    '',
    row(['target', 'value', 'goal', 'result'], [28, 10, 8, 7]),
    ...results.map((c) => row([c.name, fixed(c.value, 2), c.goal, c.met ? 'met' : 'MISSED'], [28, 10, 8, 7])),
  ];
  return lines.join('\n');
}

export function writeJson(file: string, report: object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
