import { describe, expect, it } from 'vitest';
import { receivedReferenceValid, receivedVerificationValid } from './receivedReference';

describe('received reference numbers', () => {
  it('accepts a statement and a simplified declaration as the system writes them', () => {
    expect(receivedReferenceValid('26NLX7TVCZAQ2S')).toBe(true);
    expect(receivedReferenceValid(' s26frnmnbsa96q ')).toBe(true);
  });

  it('refuses hyphens, inner spaces and wrong lengths', () => {
    expect(receivedReferenceValid('25FI-KGLE0Q7R')).toBe(false);
    expect(receivedReferenceValid('25FI KGLE0Q7RX')).toBe(false);
    expect(receivedReferenceValid('26NLX7TVCZAQ2')).toBe(false);
    expect(receivedVerificationValid('SFFCB4Y3')).toBe(true);
    expect(receivedVerificationValid('SF-CB')).toBe(false);
  });
});
