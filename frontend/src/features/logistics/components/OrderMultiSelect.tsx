import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useSession } from '@/shared/session/useSession';
import { orderOptionsQueryOptions } from '../api/logistics';
import type { CarriedOrder } from '../api/types';

interface Props {
  value?: number[];
  onChange?: (value: number[]) => void;
  /** The orders already on the shipment (labels before any search). */
  known?: CarriedOrder[];
  placeholder?: string;
}

/** Purchase orders picked by searching their number or supplier. */
export function OrderMultiSelect({ value, onChange, known = [], placeholder }: Props) {
  const tenant = useSession((s) => s.tenantId);
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [labels, setLabels] = useState<Map<number, string>>(
    () => new Map(known.map((o) => [o.id, `${o.order_number} · ${o.supplier_name}`])),
  );
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text]);
  const query = useQuery(orderOptionsQueryOptions(tenant, debounced));
  const found = (query.data?.results ?? []).map((o) => ({ value: o.id, label: `${o.order_number} · ${o.supplier_detail.name}` }));
  const options = [...found];
  for (const [id, label] of labels) if (!options.some((o) => o.value === id)) options.push({ value: id, label });

  return (
    <Select<number[]>
      mode="multiple"
      value={value}
      placeholder={placeholder}
      showSearch={{ filterOption: false, onSearch: setText }}
      options={options}
      notFoundContent={query.isFetching ? <Spin size="small" /> : undefined}
      onChange={(next) => {
        setLabels((current) => {
          const map = new Map(current);
          for (const id of next) {
            const option = options.find((o) => o.value === id);
            if (option) map.set(id, option.label);
          }
          return map;
        });
        onChange?.(next);
      }}
    />
  );
}
