/**
 * The ratio of two builds' rates measured in interleaved rounds. Round r runs A and B back to back, so
 * the two share that moment of the machine (another process, a slower stretch of the virtual CPU): the
 * test is paired on the rounds, as Node core's benchmark/compare.R is not (its runs are independent).
 * Each round gives ln(B_r / A_r); Student's t on those differences gives the interval of their mean,
 * read back as a ratio (a geometric mean of the rounds' ratios). Measured on this project's 2-core
 * machine (20 rounds of one build against itself), the rounds' log ratios varied 2 to 3 times less than
 * an unpaired test sees (standard deviation 0.12-0.18 against 0.32-0.38), so the interval is that much
 * narrower than Welch's on the same rounds.
 */
import jstat from 'jstat';

export interface Comparison {
  meanA: number;
  meanB: number;
  /** The geometric mean of the rounds' ratios B_r / A_r. */
  ratio: number;
  /** The interval of the ratio at `confidence`. */
  low: number;
  high: number;
}

const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;

/** `a[r]` and `b[r]` are round r's rates; at least two rounds, every rate positive. */
export function paired(a: readonly number[], b: readonly number[], confidence = 0.95): Comparison {
  if (a.length !== b.length || a.length < 2) throw new Error('Paired test: the same number of rounds for both builds, at least two');
  if ([...a, ...b].some((rate) => !(rate > 0))) throw new Error('Paired test: every rate must be positive');
  const logs = a.map((rateA, r) => Math.log(b[r]! / rateA));
  const m = mean(logs);
  const se = Math.sqrt(logs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (logs.length - 1) / logs.length);
  const half = jstat.studentt.inv(1 - (1 - confidence) / 2, logs.length - 1) * se;
  return { meanA: mean(a), meanB: mean(b), ratio: Math.exp(m), low: Math.exp(m - half), high: Math.exp(m + half) };
}

/**
 * A significant change: the interval excludes 1 and the ratio is off 1 by more than `threshold`
 * (0.05: a change under 5 % is not flagged, however sure).
 */
export function verdict(c: Comparison, threshold: number): 'faster' | 'slower' | '' {
  if (c.low > 1 && c.ratio - 1 > threshold) return 'faster';
  if (c.high < 1 && 1 - c.ratio > threshold) return 'slower';
  return '';
}
