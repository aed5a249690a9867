import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { DetailPage } from '@/shared/components/DetailPage';
import { useDeleteProduct, useProduct } from '../api/products';
import { ActiveStatusTag } from '@/shared/components/ActiveStatus';
import styles from '../components/products.module.css';
import { cartonDimensions, formatMoney, formatWeight } from '../format';
import { useMayPermission } from '@/shared/session/permissions';
import { PRODUCT_PERMS } from '../permissions';
import { useSeesPrices } from '@/shared/session/prices';
import { paths } from '@/shared/routing/paths';

const EMPTY = '–';

export default function ProductDetailPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation('products');
  const seesPrices = useSeesPrices();
  const navigate = useNavigate();
  const mayChange = useMayPermission(PRODUCT_PERMS.change);
  const mayDelete = useMayPermission(PRODUCT_PERMS.delete);
  const remove = useDeleteProduct();
  const query = useProduct(id);

  return (
    <DetailPage
      query={query}
      invalid={!id || !/^\d+$/.test(id)}
      notFound={t('detail.notFound')}
      backTo={paths.products()}
      backLabel={t('actions.backToList')}
      backInHeader
      title={(product) => product.article_number}
      tags={(product) => <ActiveStatusTag active={product.is_active} />}
      extra={(product) => (
        <>
          {mayChange ? (
            <Button type="primary" icon={<EditOutlined />} onClick={() => void navigate(paths.productEdit(product.id))} data-testid="product-edit">
              {t('actions.edit')}
            </Button>
          ) : null}
          {mayDelete ? (
            <ConfirmDelete
              itemLabel={product.article_number}
              onConfirm={async () => {
                await remove.mutateAsync(product.id);
                void navigate(paths.products(), { replace: true });
              }}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="product-delete">
                {t('actions.delete')}
              </Button>
            </ConfirmDelete>
          ) : null}
        </>
      )}
    >
      {(product) => (
        <Flex vertical gap="middle">
          <Card title={t('form.sections.basics')}>
            <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 3 }} data-testid="product-details">
              <Descriptions.Item label={t('fields.name')}>{product.name}</Descriptions.Item>
              <Descriptions.Item label={t('fields.name_zh')}>{product.name_zh || EMPTY}</Descriptions.Item>
              <Descriptions.Item label={t('fields.group')}>{product.group_path ?? EMPTY}</Descriptions.Item>
              <Descriptions.Item label={t('fields.unit')}>{t(`units.${product.unit}`)}</Descriptions.Item>
              <Descriptions.Item label={t('fields.description')} span={2}>
                <Typography.Paragraph className={styles.preWrap}>{product.description || EMPTY}</Typography.Paragraph>
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('form.sections.carton')}>
            <Descriptions column={{ xs: 1, sm: 2, lg: 4 }}>
              <Descriptions.Item label={t('fields.weight_per_carton_kg')}>{formatWeight(product.weight_per_carton_kg) ?? EMPTY}</Descriptions.Item>
              <Descriptions.Item label={t('fields.dimensions')}>{cartonDimensions(product) ?? EMPTY}</Descriptions.Item>
              <Descriptions.Item label={t('fields.hs_code')}>{product.hs_code || EMPTY}</Descriptions.Item>
              <Descriptions.Item label={t('fields.barcode')}>{product.barcode || EMPTY}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t('form.sections.prices')}>
            <Descriptions column={{ xs: 1, sm: 2, lg: 4 }}>
              {seesPrices ? (
                <Descriptions.Item label={t('fields.purchase_price')}>
                  {formatMoney(product.purchase_price, product.currency, i18n.language) ?? EMPTY}
                </Descriptions.Item>
              ) : null}
              {seesPrices ? (
                <Descriptions.Item label={t('fields.sales_price')}>
                  {formatMoney(product.sales_price, product.currency, i18n.language) ?? EMPTY}
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('fields.currency')}>{product.currency}</Descriptions.Item>
              <Descriptions.Item label={t('fields.visma_code')}>{product.visma_code || EMPTY}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Flex>
      )}
    </DetailPage>
  );
}
