import { describe, expect, it } from 'vitest';
import { paired, verdict } from '../../bench/lib/paired.ts';

describe("bench:compare's paired test", () => {
  it('reads rounds that all changed by the same ratio as that ratio, with no doubt', () => {
    const c = paired([100, 200, 400], [110, 220, 440]);
    expect(c.ratio).toBeCloseTo(1.1, 10);
    expect(c.low).toBeCloseTo(1.1, 10);
    expect(c.high).toBeCloseTo(1.1, 10);
    expect(c.meanA).toBeCloseTo(233.333, 3);
    expect(c.meanB).toBeCloseTo(256.667, 3);
    expect(verdict(c, 0.05)).toBe('faster');
  });

  it("pairs each round's rates: a machine twice as fast in one round moves both builds, not the ratio", () => {
    // Unpaired, these rates (A: 100 then 200) overlap completely; paired, B is 10 % slower in every round.
    const c = paired([100, 200, 100, 200], [90, 180, 90, 180]);
    expect(c.ratio).toBeCloseTo(0.9, 10);
    expect(verdict(c, 0.05)).toBe('slower');
  });

  it("gives Student's interval on the rounds' log ratios", () => {
    // ln(0.9), ln(1.1), ln(1): mean -0.003351, standard error 0.057955, t(0.975, 2) = 4.3027.
    const c = paired([100, 100, 100], [90, 110, 100]);
    expect(c.ratio).toBeCloseTo(0.99666, 4);
    expect(c.low).toBeCloseTo(0.7767, 3);
    expect(c.high).toBeCloseTo(1.2789, 3);
    expect(verdict(c, 0.05)).toBe('');
    // At 99 % (t(0.995, 2) = 9.9248) the interval is wider.
    const wider = paired([100, 100, 100], [90, 110, 100], 0.99);
    expect(wider.low).toBeLessThan(c.low);
    expect(wider.high).toBeGreaterThan(c.high);
  });

  it('refuses rounds that do not pair or a rate that is not positive', () => {
    expect(() => paired([100, 100], [100])).toThrow(/same number of rounds/);
    expect(() => paired([100], [100])).toThrow(/at least two/);
    expect(() => paired([100, 0], [100, 100])).toThrow(/positive/);
  });
});
