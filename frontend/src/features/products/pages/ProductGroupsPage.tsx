import { DownloadOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Dropdown, Empty, Flex, Input, Table, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '@/shared/components/ConfirmDelete';
import { ErrorState } from '@/shared/components/ErrorState';
import { PageContainer } from '@/shared/components/PageContainer';
import { useErrorText } from '@/shared/errors/errorText';
import { ImportDialog } from '@/shared/import/ImportDialog';
import { IMPORT_FILE_FORMATS, exportList } from '@/shared/import/importApi';
import { PRODUCT_GROUPS_URL } from '../api/endpoints';
import { useDeleteGroup, useGroupTree, useInvalidateProducts } from '../api/products';
import type { ProductGroupNode } from '../api/types';
import { GroupFormModal, type GroupFormTarget } from '../components/GroupFormModal';
import styles from '../components/products.module.css';
import { useMayPermission } from '@/shared/session/permissions';
import { PRODUCT_PERMS } from '../permissions';

type Row = Omit<ProductGroupNode, 'children'> & { children?: Row[] };

/** Nodes whose name or code matches, with the path to them kept so the tree still reads. */
function filterTree(nodes: ProductGroupNode[], term: string): Row[] {
  const needle = term.trim().toLocaleLowerCase();
  const walk = (list: ProductGroupNode[]): Row[] =>
    list.flatMap((node) => {
      const children = walk(node.children);
      const hit = !needle || node.name.toLocaleLowerCase().includes(needle) || node.code.toLocaleLowerCase().includes(needle);
      if (!hit && children.length === 0) return [];
      const { children: _ignored, ...rest } = node;
      return [{ ...rest, ...(children.length > 0 ? { children } : {}) }];
    });
  return walk(nodes);
}

function allIds(rows: Row[]): number[] {
  return rows.flatMap((row) => [row.id, ...allIds(row.children ?? [])]);
}

/** The product group tree: expand, search, create (also as a subgroup), edit, delete, export, import. */
export default function ProductGroupsPage() {
  const { t } = useTranslation('products');
  const { message } = App.useApp();
  const errorText = useErrorText();
  const tree = useGroupTree();
  const remove = useDeleteGroup();
  const invalidate = useInvalidateProducts();
  const mayAdd = useMayPermission(PRODUCT_PERMS.addGroup);
  const mayChange = useMayPermission(PRODUCT_PERMS.changeGroup);
  const mayDelete = useMayPermission(PRODUCT_PERMS.deleteGroup);
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<GroupFormTarget | null>(null);
  const [importing, setImporting] = useState(false);
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());

  const rows = useMemo(() => filterTree(tree.data ?? [], search), [tree.data, search]);
  const expanded = useMemo(() => allIds(rows).filter((id) => !collapsed.has(id)), [rows, collapsed]);

  const runExport = async (format: (typeof IMPORT_FILE_FORMATS)[number]) => {
    try {
      await exportList(PRODUCT_GROUPS_URL, format, 'product-groups');
    } catch (error) {
      void message.error(errorText(error));
    }
  };

  if (tree.isError && !tree.data) {
    return (
      <PageContainer>
        <ErrorState error={tree.error} onRetry={() => void tree.refetch()} />
      </PageContainer>
    );
  }

  return (
    <PageContainer
      extra={
        <>
          <Dropdown
            menu={{
              items: IMPORT_FILE_FORMATS.map((format) => ({ key: format, label: t(`common:table.export.${format}`) })),
              onClick: ({ key }) => void runExport(key as (typeof IMPORT_FILE_FORMATS)[number]),
            }}
          >
            <Button icon={<DownloadOutlined />}>{t('common:table.export.label')}</Button>
          </Dropdown>
          {mayAdd && mayChange ? (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              {t('actions.import')}
            </Button>
          ) : null}
          {mayAdd ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ mode: 'create', parent: null })} data-testid="group-new">
              {t('groups.new')}
            </Button>
          ) : null}
        </>
      }
    >
      <Card>
        <Flex vertical gap="small">
          <Input.Search allowClear placeholder={t('groups.searchPlaceholder')} onChange={(event) => setSearch(event.target.value)} className={styles.search} aria-label={t('common:actions.search')} />
          <Table<Row>
            rowKey="id"
            dataSource={rows}
            loading={tree.isFetching}
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="group-tree"
            expandable={{
              expandedRowKeys: expanded,
              onExpand: (open, row) =>
                setCollapsed((current) => {
                  const next = new Set(current);
                  if (open) next.delete(row.id);
                  else next.add(row.id);
                  return next;
                }),
            }}
            locale={{ emptyText: <Empty description={search ? t('common:table.noMatches') : t('groups.empty')} /> }}
            columns={[
              { title: t('groups.fields.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
              { title: t('groups.fields.code'), dataIndex: 'code', responsive: ['sm'] },
              { title: t('groups.fields.products'), dataIndex: 'product_count', align: 'right', className: styles.number },
              { title: t('groups.fields.description'), dataIndex: 'description', responsive: ['lg'], ellipsis: true },
              {
                key: 'actions',
                align: 'right',
                render: (_: unknown, row) => (
                  <Flex gap={4} justify="end" onClick={(event) => event.stopPropagation()}>
                    {mayAdd ? (
                      <Tooltip title={t('groups.addSubgroup')}>
                        <Button type="text" icon={<PlusOutlined />} aria-label={t('groups.addSubgroup')} onClick={() => setTarget({ mode: 'create', parent: row.id })} />
                      </Tooltip>
                    ) : null}
                    {mayChange ? (
                      <Tooltip title={t('actions.edit')}>
                        <Button
                          type="text"
                          icon={<EditOutlined />}
                          aria-label={t('actions.edit')}
                          onClick={() => setTarget({ mode: 'edit', group: { ...row, children: [] } })}
                        />
                      </Tooltip>
                    ) : null}
                    {mayDelete ? <ConfirmDelete itemLabel={row.name} onConfirm={() => remove.mutateAsync(row.id)} /> : null}
                  </Flex>
                ),
              },
            ]}
          />
        </Flex>
      </Card>
      {target ? <GroupFormModal target={target} onClose={() => setTarget(null)} /> : null}
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoint={PRODUCT_GROUPS_URL}
        kind="products.productgroup"
        resourceLabel={t('groups.resource')}
        fileStem="product-groups"
        onImported={() => void invalidate()}
      />
    </PageContainer>
  );
}
