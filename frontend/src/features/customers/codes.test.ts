import { describe, expect, it } from 'vitest';
import { countryName, countryOptions, flattenFieldErrors } from './codes';

describe('customer form helpers', () => {
  it('names countries in the user language', () => {
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('DE', 'zh')).toBe('德国');
    expect(countryOptions('en').some((option) => option.value === 'NL')).toBe(true);
  });

  it('flattens nested server field errors onto form paths', () => {
    expect(
      flattenFieldErrors({ number: ['Taken.'], contacts: { '1': { email: ['Enter a valid email address.'] } } }),
    ).toEqual([
      { name: ['number'], errors: ['Taken.'] },
      { name: ['contacts', 1, 'email'], errors: ['Enter a valid email address.'] },
    ]);
    expect(flattenFieldErrors({ contacts: [{}, { name: ['Required.'] }] })).toEqual([{ name: ['contacts', 1, 'name'], errors: ['Required.'] }]);
  });
});
