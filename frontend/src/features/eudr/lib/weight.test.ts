import { describe, expect, it } from 'vitest';
import { MIN_GENERATE_KG, cartonCap, consumption, enoughToGenerate, toKg, weightBar } from './weight';

const weight = (original: string, loss: string, used: string) => {
  const available = Number(original) - Number(loss);
  return {
    original_kg: original,
    loss_kg: loss,
    available_kg: String(available),
    used_kg: used,
    remaining_kg: String(available - Number(used)),
  };
};

describe('weightBar', () => {
  it('lays out used, remaining and loss as shares of the original weight', () => {
    const bar = weightBar(weight('1000.000', '50.000', '200.000'));
    expect(bar.usedPercent).toBe(20);
    expect(bar.remainingPercent).toBe(75);
    expect(bar.lossPercent).toBe(5);
    expect(bar.usedPercent + bar.remainingPercent + bar.lossPercent).toBe(100);
    expect(bar.usedOfAvailablePercent).toBe(21.1);
    expect(bar.level).toBe('ok');
  });

  it('never draws more than 100 % even when the figures overshoot', () => {
    const bar = weightBar({ original_kg: '100', loss_kg: '10', available_kg: '90', used_kg: '95', remaining_kg: '-5' });
    expect(bar.usedPercent).toBe(95);
    expect(bar.lossPercent).toBe(5);
    expect(bar.remainingPercent).toBe(0);
    expect(bar.level).toBe('empty');
  });

  it('is empty for a delivery without weight', () => {
    const bar = weightBar(weight('0', '0', '0'));
    expect([bar.usedPercent, bar.remainingPercent, bar.lossPercent, bar.usedOfAvailablePercent]).toEqual([0, 0, 0, 0]);
    expect(bar.level).toBe('empty');
  });

  it('marks less than the generation minimum as low', () => {
    expect(weightBar(weight('100', '0', String(100 - MIN_GENERATE_KG + 0.001))).level).toBe('low');
    expect(weightBar(weight('100', '0', String(100 - MIN_GENERATE_KG))).level).toBe('ok');
  });

  it('reads decimal strings and treats garbage as zero', () => {
    expect(toKg('12.345')).toBe(12.345);
    expect(toKg('')).toBe(0);
    expect(toKg(null)).toBe(0);
    expect(toKg('abc')).toBe(0);
  });
});

describe('cartonCap', () => {
  it('adds the approved cartons to the allowed cap', () => {
    expect(cartonCap({ issued_cartons: 90, allowed_carton_cap: 100, approved_over_cap: 20 })).toMatchObject({ limit: 120, left: 30, usedPercent: 75 });
  });

  it('has no limit when the policy sets no cap', () => {
    expect(cartonCap({ issued_cartons: 5, allowed_carton_cap: null, approved_over_cap: 0 })).toMatchObject({ limit: null, left: null, usedPercent: 0 });
  });

  it('shows a full bar when a zero cap has cartons', () => {
    expect(cartonCap({ issued_cartons: 1, allowed_carton_cap: 0, approved_over_cap: 0 })).toMatchObject({ limit: 0, left: 0, usedPercent: 100 });
  });
});

describe('consumption', () => {
  it('previews what a request consumes and how many cartons fit', () => {
    expect(consumption(10, 0.674, 500)).toEqual({ totalKg: 6.74, remainingAfterKg: 493.26, fits: true, maxCartons: 741 });
    expect(consumption(1000, 0.674, 500).fits).toBe(false);
    expect(consumption(null, 1, 5)).toMatchObject({ totalKg: 0, fits: true, maxCartons: 5 });
  });

  it('decides on exact decimals: a remainder of exactly n cartons fits n, with no float drift', () => {
    // 0.1 x 3 is 0.30000000000000004 in floats; as decimals it is exactly what remains.
    expect(consumption(3, '0.1', '0.3')).toEqual({ totalKg: 0.3, remainingAfterKg: 0, fits: true, maxCartons: 3 });
    expect(consumption(3, 0.1, 0.3).fits).toBe(true);
    // 0.7 / 0.1 is 6.999999999999999 in floats: floor would offer 6 cartons.
    expect(consumption(7, '0.1', '0.7')).toMatchObject({ fits: true, maxCartons: 7 });
    expect(consumption(8, '0.1', '0.7')).toMatchObject({ fits: false, maxCartons: 7 });
    expect(consumption(1, '0.674', '-1')).toMatchObject({ fits: false, maxCartons: 0 });
  });
  it('reads the API strings, never floats, for the generation minimum', () => {
    expect(enoughToGenerate('10.000')).toBe(true);
    expect(enoughToGenerate('9.999')).toBe(false);
    expect(enoughToGenerate('abc')).toBe(false);
  });
});
