import { describe, expect, it } from 'vitest';
import en from '@/i18n/en/eudr.json';
import zh from '@/i18n/zh/eudr.json';
import {
  basicInfoErrors,
  canSearchProducts,
  countRule,
  lineErrors,
  materialErrors,
  parseFileRule,
  productSearchRule,
  pulpTypeRule,
  remainingRule,
  weightRule,
} from './validation';

function text(key: string, messages: Record<string, unknown> = en): string {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages) as string;
}

describe('raw-material form rules (docs/specification.md section 5)', () => {
  it('requires the parent vendor and the delivery number, with docs/specification.md texts', () => {
    const errors = basicInfoErrors({ parent_vendor: null, delivery_number: '  ' });
    expect(text(errors.parent_vendor!)).toBe('Parent vendor is required');
    expect(text(errors.delivery_number!)).toBe('Delivery number is required');
    expect(basicInfoErrors({ parent_vendor: 4, delivery_number: 'DN-1' })).toEqual({});
  });

  it('checks each material line', () => {
    const errors = lineErrors({ material_type: '', weight_kg: '' });
    expect(text(errors.material_type!)).toBe('Material type is required');
    expect(text(errors.weight_kg!)).toBe('Valid weight is required');
    expect(lineErrors({ material_type: 'pulp', weight_kg: '10' })).toEqual({});
  });

  it.each([['0'], ['-1'], ['abc'], [''], [null], ['1e400']])('refuses the weight %s', (value) => {
    expect(weightRule(value)).toBe('validation.validWeightRequired');
  });

  it.each([['0.001'], ['12'], [12.5]])('accepts the weight %s', (value) => {
    expect(weightRule(value)).toBeNull();
  });

  it('requires the pulp type for paper only', () => {
    expect(text(pulpTypeRule('paper', '')!)).toBe('Pulp type is required for Paper materials');
    expect(pulpTypeRule('paper', 'virgin')).toBeNull();
    expect(pulpTypeRule('board', '')).toBeNull();
  });

  it('requires at least one material', () => {
    expect(text(materialErrors([]).list!)).toBe('At least one material is required');
    expect(materialErrors([{ material_type: 'paper', weight_kg: '5', pulp_type: 'mixed' }])).toEqual({ list: null, lines: [{}] });
  });

  it('needs a delivery file to parse', () => {
    expect(text(parseFileRule(undefined)!)).toBe('Delivery file is required (parse)');
    expect(parseFileRule(new File(['a'], 'd.csv'))).toBeNull();
  });

  it('has a Chinese text for every message', () => {
    for (const key of Object.keys(en.validation)) {
      expect(text(`validation.${key}`, zh)).toMatch(/\S/);
      expect(text(`validation.${key}`, zh)).not.toBe(text(`validation.${key}`));
    }
  });
});

describe('generate-cartons rules (docs/specification.md sections 5 and 9)', () => {
  it('searches products from 2 characters on', () => {
    expect(productSearchRule('C')).toBe('validation.productSearchMin');
    expect(productSearchRule(' C ')).toBe('validation.productSearchMin');
    expect(productSearchRule('')).toBeNull();
    expect(productSearchRule('CT')).toBeNull();
    expect(canSearchProducts('C')).toBe(false);
    expect(canSearchProducts('CT')).toBe(true);
  });

  it('requires a whole requested count', () => {
    expect(text(countRule(undefined)!)).toBe('Requested count is required');
    expect(countRule(0)).toBe('validation.countPositive');
    expect(countRule(2.5)).toBe('validation.countPositive');
    expect(countRule(3)).toBeNull();
  });

  it('refuses generation under 10 kg remaining', () => {
    expect(text(remainingRule('9.999')!)).toBe('Insufficient weight (min 10kg required)');
    expect(remainingRule('10.000')).toBeNull();
    expect(remainingRule('0')).toBe('validation.insufficientWeightMin');
  });
});
