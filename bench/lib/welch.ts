/**
 * Welch's two-sample t-test on two builds' rates, as Node core's benchmark/compare.R does: the
 * confidence interval of the difference of the means (unequal variances, Welch-Satterthwaite degrees
 * of freedom), divided by A's mean to read as a ratio B/A.
 */
import jstat from 'jstat';

export interface Comparison {
  meanA: number;
  meanB: number;
  /** meanB / meanA. */
  ratio: number;
  /** The interval of the ratio at `confidence` (1 + the difference's interval / meanA). */
  low: number;
  high: number;
  /** Degrees of freedom of Welch's test. */
  df: number;
}

const mean = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const variance = (xs: readonly number[], m: number) => xs.reduce((sum, x) => sum + (x - m) ** 2, 0) / (xs.length - 1);

/** Needs at least two samples on each side. */
export function welch(a: readonly number[], b: readonly number[], confidence = 0.95): Comparison {
  if (a.length < 2 || b.length < 2) throw new Error('Welch test: at least two samples per build');
  const meanA = mean(a);
  const meanB = mean(b);
  const va = variance(a, meanA) / a.length;
  const vb = variance(b, meanB) / b.length;
  const se = Math.sqrt(va + vb);
  const df = se === 0 ? a.length + b.length - 2 : (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const half = jstat.studentt.inv(1 - (1 - confidence) / 2, df) * se;
  const diff = meanB - meanA;
  return { meanA, meanB, ratio: meanB / meanA, low: 1 + (diff - half) / meanA, high: 1 + (diff + half) / meanA, df };
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
