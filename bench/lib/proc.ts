/** What /proc tells (Linux): a server's resident memory and CPU time, and how busy the whole machine was. */
import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

export interface RssSampler {
  /** Highest VmRSS seen, in MB. */
  maxMb(): number;
  stop(): void;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // The process has ended (or this is not Linux): nothing to read.
    return null;
  }
}

export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) / 1024 : 0;
}

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  // Fields after the command name (which is in parentheses and may hold spaces): utime is the 12th, stime the 13th.
  const fields = (read(`/proc/${pid}/stat`) ?? '').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds the whole machine has spent busy (all cores, everything but idle and I/O wait). */
export function machineBusySeconds(): number {
  const [, ...ticks] = (read('/proc/stat') ?? '').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

/** Samples VmRSS every `everyMs` until stopped; keeps the highest. */
export function sampleRss(pid: number, everyMs = 250): RssSampler {
  let max = rssMb(pid);
  const timer = setInterval(() => {
    max = Math.max(max, rssMb(pid));
  }, everyMs);
  return { maxMb: () => max, stop: () => clearInterval(timer) };
}
