import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/session';
import { displayName, fullName, parentVendorIdOf, parentVendorName } from './userNames';

describe('displayName', () => {
  it('falls back profile_name, name, username', () => {
    expect(displayName(makeUser({ profile_name: 'Prof', name: 'Name' }))).toBe('Prof');
    expect(displayName(makeUser({ profile_name: '', name: 'Name' }))).toBe('Name');
    expect(displayName(makeUser({ username: 'alice' }))).toBe('alice');
    expect(displayName(null)).toBe('');
  });
});

describe('fullName', () => {
  it('falls back name, first and last name, profile_name, username', () => {
    expect(fullName(makeUser({ name: 'Name', first_name: 'A', last_name: 'B', profile_name: 'P' }))).toBe('Name');
    expect(fullName(makeUser({ first_name: 'Ada', last_name: 'Lovelace', profile_name: 'P' }))).toBe('Ada Lovelace');
    expect(fullName(makeUser({ first_name: 'Ada', profile_name: 'P' }))).toBe('Ada');
    expect(fullName(makeUser({ profile_name: 'P' }))).toBe('P');
    expect(fullName(makeUser({ username: 'alice' }))).toBe('alice');
  });
});

describe('parentVendorName', () => {
  const pv = { id: 3, name: 'Paper Mill Ltd', cname: '造纸厂' };
  it('shows cname unless the language is English', () => {
    expect(parentVendorName(pv, 'zh')).toBe('造纸厂');
    expect(parentVendorName(pv, null)).toBe('造纸厂');
    expect(parentVendorName(pv, 'en')).toBe('Paper Mill Ltd');
  });
  it('falls back to name', () => {
    expect(parentVendorName({ ...pv, cname: '' }, 'zh')).toBe('Paper Mill Ltd');
  });
  it('has no name for a bare id or none', () => {
    expect(parentVendorName(3, 'zh')).toBe('');
    expect(parentVendorName(null, 'zh')).toBe('');
  });
  it('gives the id of a number or an object', () => {
    expect(parentVendorIdOf(makeUser({ parent_vendor: 3 }))).toBe('3');
    expect(parentVendorIdOf(makeUser({ parent_vendor: pv }))).toBe('3');
    expect(parentVendorIdOf(makeUser({ parent_vendor: null }))).toBeNull();
  });
});
