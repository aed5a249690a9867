import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListPage } from '@/shared/components/ListPage';
import { PhoneLine } from '@/shared/components/PhoneLine';
import { usePhone } from '@/shared/hooks/usePhone';
import type { ServerColumn } from '@/shared/components/ServerTable';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { useInvalidateProducts } from '../api/products';
import { PRODUCTS_URL } from '../api/endpoints';
import type { Product } from '../api/types';
import { GroupTreeSelect } from '../components/GroupTreeSelect';
import styles from '../components/products.module.css';
import { formatMoney, formatWeight } from '../format';
import { useMayPermission } from '@/shared/session/permissions';
import { PRODUCT_PERMS } from '../permissions';
import { useSeesPrices } from '@/shared/session/prices';
import { ActiveStatusFilter, ActiveStatusTag, activeStatusColumn } from '@/shared/components/ActiveStatus';
import { paths } from '@/shared/routing/paths';

const FILTER_KEYS = ['group', 'is_active'] as const;

/** The product list: server paging, sorting, search and filters in the URL; export and import. */
export default function ProductListPage() {
  const { t, i18n } = useTranslation('products');
  const navigate = useNavigate();
  const mayAdd = useMayPermission(PRODUCT_PERMS.add);
  const mayChange = useMayPermission(PRODUCT_PERMS.change);
  const mayImport = mayAdd && mayChange;
  const [importing, setImporting] = useState(false);
  const invalidate = useInvalidateProducts();

  const seesPrices = useSeesPrices();
  const phone = usePhone();
  const price = (product: Product) => formatMoney(product.sales_price, product.currency, i18n.language) ?? '–';
  // On a phone (below 576px): the article number with the name (both languages) and group under it,
  // and the status with the sales price (for those who see prices) under it.
  const columns: ServerColumn<Product>[] = [
    {
      title: t('fields.article_number'),
      dataIndex: 'article_number',
      sorter: true,
      render: (value: string, product) => (
        <>
          <Typography.Text strong>{value}</Typography.Text>
          <PhoneLine secondary={false}>{product.name}</PhoneLine>
          {product.name_zh ? <PhoneLine>{product.name_zh}</PhoneLine> : null}
          {product.group_path ? <PhoneLine>{product.group_path}</PhoneLine> : null}
        </>
      ),
    },
    {
      title: t('fields.name'),
      dataIndex: 'name',
      sorter: true,
      hidden: phone,
      render: (_: unknown, product) => (
        <>
          {product.name}
          {product.name_zh ? (
            <Typography.Text type="secondary" className={styles.secondLine}>
              {product.name_zh}
            </Typography.Text>
          ) : null}
        </>
      ),
    },
    { title: t('fields.group'), key: 'group__name', dataIndex: 'group_path', sorter: true, responsive: ['md'] },
    { title: t('fields.unit'), dataIndex: 'unit', responsive: ['lg'], render: (unit: string) => t(`units.${unit}`) },
    {
      title: t('fields.weight_per_carton_kg'),
      dataIndex: 'weight_per_carton_kg',
      sorter: true,
      align: 'right',
      responsive: ['sm'],
      render: (value: string | null) => <span className={styles.number}>{formatWeight(value) ?? '–'}</span>,
    },
    { title: t('fields.hs_code'), dataIndex: 'hs_code', sorter: true, responsive: ['lg'] },
    ...(seesPrices ? [{
      title: t('fields.sales_price'),
      dataIndex: 'sales_price',
      sorter: true,
      align: 'right',
      responsive: ['md'],
      render: (_: string | null, product: Product) => <span className={styles.number}>{price(product)}</span>,
    } satisfies ServerColumn<Product>] : []),
    {
      ...activeStatusColumn<Product>(t('fields.is_active')),
      // The status stays on a phone, with the price under it.
      responsive: phone ? undefined : ['sm'],
      render: (active: boolean | undefined, product: Product) => (
        <>
          <ActiveStatusTag active={active} />
          {seesPrices ? <PhoneLine>{price(product)}</PhoneLine> : null}
        </>
      ),
    },
  ];

  return (
    <>
      <ListPage<Product>
        endpoint={PRODUCTS_URL}
        rowKey="id"
        columns={columns}
        listOptions={{ filterKeys: FILTER_KEYS }}
        searchPlaceholder={t('list.searchPlaceholder')}
        onRowClick={(product) => void navigate(paths.product(product.id))}
        exportFileName="products"
        filters={(list) => (
          <>
            <GroupTreeSelect
              className={styles.filter}
              placeholder={t('list.allGroups')}
              value={list.filters.group ? Number(list.filters.group) : null}
              onChange={(value) => list.setFilter('group', value === null || value === undefined ? null : String(value))}
              aria-label={t('fields.group')}
              data-testid="filter-group"
            />
            <ActiveStatusFilter list={list} label={t('fields.is_active')} className={styles.filter} />
          </>
        )}
        actions={
          <>
            {mayImport ? (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="product-import">
                {t('actions.import')}
              </Button>
            ) : null}
            {mayAdd ? (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(paths.productCreate())} data-testid="product-new">
                {t('actions.new')}
              </Button>
            ) : null}
          </>
        }
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoint={PRODUCTS_URL}
        kind="products.product"
        resourceLabel={t('resource')}
        fileStem="products"
        onImported={() => void invalidate()}
      />
    </>
  );
}
