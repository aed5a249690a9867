import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import type { SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { searchOneQueryOptions, searchOptionsQueryOptions } from '@/api/queries';
import { useSession } from '@/shared/session/useSession';

export interface RemoteOption<T> {
  value: number;
  label: string;
  record: T;
}

interface Props<T> extends Omit<SelectProps<number>, 'options' | 'onSearch' | 'filterOption' | 'showSearch' | 'onChange'> {
  /** Query key stem (the list endpoint). */
  queryKey: string;
  search: (text: string, signal?: AbortSignal) => Promise<{ results: T[] }>;
  toOption: (record: T) => RemoteOption<T>;
  /** Options known before any search (the current value's record when editing). */
  initial?: RemoteOption<T>[];
  /** Searches only from this many characters (docs/specification.md: product search needs at least 2). */
  minChars?: number;
  /** Loads the record of a value no option knows yet (a filter restored from the URL). */
  fetchOne?: (id: number, signal?: AbortSignal) => Promise<T | undefined>;
  onChange?: (value: number | undefined, record: T | undefined) => void;
}

/** A select that searches the server as the user types (debounced), keeping the records of its options. */
export function RemoteSelect<T>({ queryKey, search, toOption, initial = [], minChars = 0, fetchOne, onChange, ...rest }: Props<T>) {
  const tenant = useSession((s) => s.tenantId);
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [known, setKnown] = useState<Map<number, RemoteOption<T>>>(() => new Map());

  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);

  const enabled = debounced.length >= minChars;
  const query = useQuery({ ...searchOptionsQueryOptions(queryKey, tenant, debounced, search), enabled });

  const value = rest.value;
  const remembered = [...initial, ...known.values()];
  const lookup = useQuery({
    ...searchOneQueryOptions(queryKey, tenant, value, (signal) =>
      fetchOne && typeof value === 'number' ? fetchOne(value, signal) : Promise.resolve(undefined),
    ),
    enabled: fetchOne !== undefined && typeof value === 'number' && !remembered.some((o) => o.value === value),
  });

  const found = enabled ? (query.data?.results ?? []).map(toOption) : [];
  const options = [...found];
  if (lookup.data) remembered.push(toOption(lookup.data));
  for (const option of remembered) if (!options.some((o) => o.value === option.value)) options.push(option);

  return (
    <Select<number>
      {...rest}
      showSearch={{ filterOption: false, onSearch: setText }}
      options={options.map(({ value, label }) => ({ value, label }))}
      notFoundContent={query.isFetching ? <Spin size="small" /> : undefined}
      onChange={(value) => {
        const option = options.find((o) => o.value === value);
        if (option) setKnown((current) => new Map(current).set(option.value, option));
        onChange?.(value, option?.record);
      }}
    />
  );
}
