import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '@/shared/session/useSession';
import { SEARCH_URL, search } from '../api/warehouse';

/**
 * The warehouse layout's search box: a carton code, a sales or purchase order number, a container or an
 * article number; choosing a hit opens it. A scanned carton code (Enter) opens the carton at once.
 */
export function WarehouseSearch() {
  const { t } = useTranslation('warehouse');
  const navigate = useNavigate();
  const tenant = useSession((s) => s.tenantId);
  const [term, setTerm] = useState('');
  const hits = useQuery({
    queryKey: [SEARCH_URL, tenant, term],
    queryFn: ({ signal }) => search(term, signal),
    enabled: term.trim().length >= 2,
    staleTime: 10_000,
  });
  const open = (url: string) => {
    setTerm('');
    void navigate(url);
  };
  const submit = async (value: string) => {
    const text = value.trim();
    if (text.length < 2) return;
    const found = await search(text).catch(() => []);
    const first = found[0];
    if (first && (found.length === 1 || first.type === 'carton')) open(first.url);
  };
  return (
    <AutoComplete
      value={term}
      onChange={setTerm}
      onSelect={(url: string) => open(url)}
      options={(hits.data ?? []).map((hit) => ({
        value: hit.url,
        label: `${t(`search.types.${hit.type}`, { defaultValue: hit.type })}: ${hit.label}`,
      }))}
      notFoundContent={term.trim().length >= 2 && hits.isSuccess ? t('search.nothing') : null}
    >
      <Input.Search
        allowClear
        placeholder={t('search.placeholder')}
        aria-label={t('search.placeholder')}
        onSearch={(value) => void submit(value)}
        data-testid="warehouse-search"
      />
    </AutoComplete>
  );
}
