import { describe, expect, it } from 'vitest';
import { containerCheckDigit, containerProblem, isUnlocode, normalizeContainer, trackingTemplateProblem } from './validators';

describe('logistics validators', () => {
  it('computes ISO 6346 check digits like the server', () => {
    expect(containerCheckDigit('CSQU305438')).toBe(3);
    expect(containerCheckDigit('MSCU123456')).toBe(6);
    expect(containerProblem('mscu 123456-6')).toBeNull();
    expect(containerProblem('MSCU1234567')).toBe('checkDigit');
    expect(containerProblem('ABC123')).toBe('format');
    expect(normalizeContainer('cbhu 456789/0')).toBe('CBHU4567890');
  });

  it('checks UN/LOCODEs and tracking templates', () => {
    expect(isUnlocode('CNSHA')).toBe(true);
    expect(isUnlocode('')).toBe(true);
    expect(isUnlocode('SHANGHAI')).toBe(false);
    expect(trackingTemplateProblem('https://x.example/{container}')).toBeNull();
    expect(trackingTemplateProblem('https://x.example/')).toBe('placeholder');
    expect(trackingTemplateProblem('ftp://x/{container}')).toBe('scheme');
  });
});
