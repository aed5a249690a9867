import { TreeSelect } from 'antd';
import type { TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroupTree } from '../api/products';
import type { ProductGroupNode } from '../api/types';

interface TreeOption {
  value: number;
  title: string;
  disabled?: boolean;
  children: TreeOption[];
}

function toOptions(nodes: ProductGroupNode[], excluded?: number): TreeOption[] {
  return nodes.map((node) => {
    const inExcluded = node.id === excluded;
    return {
      value: node.id,
      title: node.code ? `${node.name} (${node.code})` : node.name,
      disabled: inExcluded,
      // A group cannot move under its own subtree: the excluded group's children are left out.
      children: inExcluded ? [] : toOptions(node.children, excluded),
    };
  });
}

type Props = Omit<TreeSelectProps<number | null>, 'treeData'> & {
  /** A group (being edited) that cannot be chosen, with its subgroups. */
  excludeGroup?: number;
};

/** Picks a product group from the tree, with type-ahead search. */
export function GroupTreeSelect({ excludeGroup, ...props }: Props) {
  const { t } = useTranslation('products');
  const tree = useGroupTree();
  const treeData = useMemo(() => toOptions(tree.data ?? [], excludeGroup), [tree.data, excludeGroup]);
  return (
    <TreeSelect<number | null>
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={t('group.choose')}
      loading={tree.isLoading}
      treeData={treeData}
      {...props}
    />
  );
}
