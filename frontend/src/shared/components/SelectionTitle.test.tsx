import { render, screen } from '@testing-library/react';
import { Table } from 'antd';
import { describe, expect, it } from 'vitest';
import { selectionTitle } from './SelectionTitle';

describe('selectionTitle', () => {
  it('leaves one focusable "select all" box in a table that scrolls sideways: the measuring copy is inert', () => {
    const { container } = render(
      <Table
        rowKey="id"
        scroll={{ x: 'max-content' }}
        columns={[{ title: 'Code', dataIndex: 'code', key: 'code' }]}
        dataSource={[{ id: 1, code: 'A' }]}
        rowSelection={{ columnTitle: selectionTitle, getCheckboxProps: () => ({ 'aria-label': 'Select A' }) }}
        pagination={false}
      />,
    );
    const hidden = container.querySelector('[aria-hidden="true"]');
    expect(hidden, 'the table draws a hidden measuring row').not.toBeNull();
    const boxes = Array.from(container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));
    const inHidden = boxes.filter((box) => box.closest('[aria-hidden="true"]'));
    expect(inHidden.length).toBeGreaterThan(0);
    for (const box of inHidden) expect(box.closest('[inert]'), 'a hidden copy is inert').not.toBeNull();
    const usable = boxes.filter((box) => !box.closest('[inert]'));
    expect(usable).toHaveLength(2);
    expect(screen.getByLabelText('Select A')).toBeInTheDocument();
  });
});
