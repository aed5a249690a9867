import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AutoComplete, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '@/shared/session/useSession';
import { searchQueryOptions } from '../api/warehouse';
import { paths } from '@/shared/routing/paths';

/** How long typing must pause before the hits are looked up: a scanner types a whole code well within it. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The carton code of a scanned trace URL (`https://…/eudrtrace/<code>`), or null for anything else. */
export function traceCodeOf(text: string): string | null {
  const match = /^https?:\/\/[^\s/]+\/eudrtrace\/([^/?#\s]+)\/?(?:[?#].*)?$/i.exec(text.trim());
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/**
 * The warehouse layout's search box: a carton code, a sales or purchase order number, a container or an
 * article number; choosing a hit opens it. Fit for scanners: the hits are looked up once typing pauses
 * (not per keystroke), Enter searches at once (a scanned carton code opens its carton), and a scanned
 * trace URL opens its carton without a search.
 */
export function WarehouseSearch() {
  const { t } = useTranslation('warehouse');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const tenant = useSession((s) => s.tenantId);
  const [term, setTerm] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const text = term.trim();
    const timer = window.setTimeout(() => setDebounced(text), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term]);
  const hits = useQuery({ ...searchQueryOptions(tenant, debounced), enabled: debounced.length >= 2 && traceCodeOf(debounced) === null });
  const open = (url: string) => {
    setTerm('');
    setDebounced('');
    void navigate(url);
  };
  const submit = async (value: string) => {
    const text = value.trim();
    const traced = traceCodeOf(text);
    if (traced) {
      open(paths.warehouseInventory(traced));
      return;
    }
    if (text.length < 2) return;
    // At once, and through the same cache entry the typed lookup would use: one request for the text.
    setDebounced(text);
    const found = await queryClient
      .query(searchQueryOptions(tenant, text))
      .catch(() => []);
    const first = found[0];
    if (first && (found.length === 1 || first.type === 'carton')) open(first.url);
  };
  return (
    <AutoComplete
      value={term}
      onChange={setTerm}
      onSelect={(url: string) => open(url)}
      options={(debounced.length >= 2 ? (hits.data ?? []) : []).map((hit) => ({
        value: hit.url,
        label: `${t(`search.types.${hit.type}`, { defaultValue: hit.type })}: ${hit.label}`,
      }))}
      notFoundContent={debounced.length >= 2 && hits.isSuccess ? t('search.nothing') : null}
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
