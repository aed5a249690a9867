import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/shared/session/useSession';
import { productSearchQueryOptions } from '../api/warehouse';

interface Props {
  value?: number;
  onChange?: (value?: number) => void;
  id?: string;
}

/** A product by article number or name, searched on the server from two characters on. */
export function ProductSelect({ value, onChange, id }: Props) {
  const { t } = useTranslation('warehouse');
  const tenant = useSession((s) => s.tenantId);
  const [term, setTerm] = useState('');
  const products = useQuery({ ...productSearchQueryOptions(tenant, term), enabled: term.length >= 2 });
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setTerm }}
      allowClear
      size="large"
      value={value}
      onChange={onChange}
      loading={products.isFetching}
      placeholder={t('fields.productSearch')}
      notFoundContent={term.length < 2 ? t('fields.typeTwo') : undefined}
      options={(products.data?.results ?? []).map((p) => ({ value: p.id, label: `${p.article_number} ${p.name}` }))}
    />
  );
}
