/**
 * How far V8 lets the JavaScript heap grow between full collections (HEAP_GROWING_PERCENT). Left to
 * itself, V8 sets the next collection's limit to up to four times what the last one kept when the host
 * lets the heap reach 2 GB or more: a gateway keeping 80 MB live went past 500 MB of resident memory
 * under load. A fixed factor keeps the heap near what it uses, at the price of more frequent full
 * collections (docs/performance.md, "Memory", has the measures). The limit is recomputed after every
 * full collection, so setting the flag at start, after the modules loaded, governs the whole run.
 */
import { setFlagsFromString } from 'node:v8';

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * The V8 flag to set for `percent` (HEAP_GROWING_PERCENT), or undefined to leave V8's own rule: when
 * `percent` is 0, or when node was started with the flag itself (`node --heap-growing-percent=N`), which wins.
 */
export function heapGrowingFlag(percent: number, execArgv: readonly string[] = process.execArgv): string | undefined {
  if (percent === 0 || execArgv.some((argument) => FLAG.test(argument))) return undefined;
  return `--heap-growing-percent=${percent}`;
}

/** Applies HEAP_GROWING_PERCENT to this process. */
export function governHeapGrowth(percent: number): void {
  const flag = heapGrowingFlag(percent);
  if (flag) setFlagsFromString(flag);
}
