import { describe, expect, it } from 'vitest';
import { ApiError, toFieldErrors } from './errors';

describe('toFieldErrors', () => {
  it('keeps flat field errors as they are', () => {
    expect(toFieldErrors({ name: ['Required.'], code: 'Taken.' })).toEqual({ name: ['Required.'], code: ['Taken.'] });
  });

  it('flattens a nested serializer list (contacts) to dotted paths, keeping the other fields', () => {
    const data = { number: ['Taken.'], contacts: [{}, { email: ['Enter a valid e-mail address.'], name: ['Required.'] }] };
    expect(toFieldErrors(data)).toEqual({
      number: ['Taken.'],
      'contacts.1.email': ['Enter a valid e-mail address.'],
      'contacts.1.name': ['Required.'],
    });
  });

  it('flattens list-field errors keyed by index and deeper nesting', () => {
    expect(toFieldErrors({ tags: { '2': ['Too long.'] }, address: { lines: [['Bad.']] } })).toEqual({
      'tags.2': ['Too long.'],
      'address.lines.0': ['Bad.'],
    });
  });

  it('keeps a list-level message next to item errors', () => {
    expect(toFieldErrors({ contacts: ['At most 20 contacts.'] })).toEqual({ contacts: ['At most 20 contacts.'] });
  });

  it('is null for data that is not field errors', () => {
    expect(toFieldErrors(null)).toBeNull();
    expect(toFieldErrors(['x'])).toBeNull();
    expect(toFieldErrors({})).toBeNull();
    expect(toFieldErrors({ available_kg: 12.5, needed: ['x'] })).toBeNull();
    expect(toFieldErrors({ order: { id: 3 } })).toBeNull();
    expect(toFieldErrors({ lines: [null] })).toBeNull();
  });

  it('is what ApiError.fieldErrors answers', () => {
    const error = new ApiError({ message: 'Invalid input.', code: 400, data: { contacts: [{ email: ['Bad.'] }] } });
    expect(error.fieldErrors).toEqual({ 'contacts.0.email': ['Bad.'] });
  });
});
