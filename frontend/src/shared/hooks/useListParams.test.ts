import { describe, expect, it } from 'vitest';
import { parseListParams, toApiParams } from './useListParams';

describe('list parameters in the URL', () => {
  it('reads page, page size, search, ordering and filters', () => {
    const params = parseListParams(new URLSearchParams('page=3&page_size=50&search=box&ordering=-created_at&status=open&status=on_hold&type=a'));
    expect(params).toEqual({
      page: 3,
      pageSize: 50,
      search: 'box',
      ordering: '-created_at',
      filters: { status: ['open', 'on_hold'], type: 'a' },
    });
    expect(toApiParams(params)).toEqual({ page: 3, page_size: 50, search: 'box', ordering: '-created_at', status: ['open', 'on_hold'], type: 'a' });
  });

  it('falls back to defaults and caps the page size at 200', () => {
    expect(parseListParams(new URLSearchParams('page=-1&page_size=5000'), { defaultOrdering: 'name' })).toMatchObject({
      page: 1,
      pageSize: 200,
      ordering: 'name',
      search: '',
    });
    expect(parseListParams(new URLSearchParams('page=abc'))).toMatchObject({ page: 1, pageSize: 20 });
  });

  it('reads only the declared filter keys when given', () => {
    expect(parseListParams(new URLSearchParams('status=open&utm=x'), { filterKeys: ['status'] }).filters).toEqual({ status: 'open' });
  });
});
