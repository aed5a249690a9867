import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MenuBar } from './MenuBar';
import { MenuButton } from './MenuButton';
import type { MenuNode } from './MenuList';

const BAR: MenuNode[] = [
  {
    key: 'sales',
    label: 'Sales',
    children: [
      { key: '/sales/orders', label: 'Sales Orders', to: '/sales/orders' },
      { key: '/sales/invoices', label: 'Sales Invoices', to: '/sales/invoices' },
    ],
  },
  {
    key: 'purchase',
    label: 'Purchase',
    children: [
      { key: '/purchase/orders', label: 'Purchase Orders', to: '/purchase/orders' },
      {
        key: 'eudr',
        label: 'EUDR Tracking',
        children: [
          { key: '/purchase/eudr/raw-materials', label: 'Raw Materials', to: '/purchase/eudr/raw-materials' },
          { key: '/purchase/eudr/policies', label: 'Supplier Policies', to: '/purchase/eudr/policies' },
        ],
      },
      { key: '/purchase/suppliers', label: 'Supplier List', to: '/purchase/suppliers' },
    ],
  },
  { key: '/reports', label: 'Reports', to: '/reports' },
];

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderBar(path = '/', selectedKey?: string) {
  const element = (
    <>
      <MenuBar entries={BAR} label="Main menu" selectedKey={selectedKey} testId="bar" />
      <button type="button">elsewhere</button>
      <Where />
    </>
  );
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const item = (name: string) => screen.getByRole('menuitem', { name });
const focused = () => document.activeElement?.textContent;

describe('MenuBar', () => {
  it('is one tab stop of menu items, each menu closed until asked for', async () => {
    const user = userEvent.setup();
    renderBar();
    expect(screen.getByRole('menubar', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(item('Sales')).toHaveAttribute('aria-haspopup', 'menu');
    expect(item('Sales')).toHaveAttribute('aria-expanded', 'false');
    await user.tab();
    expect(focused()).toBe('Sales');
    await user.tab();
    expect(focused()).toBe('elsewhere');
  });

  it('moves with the arrow keys, opens a menu on its first or last entry and closes it with Escape', async () => {
    const user = userEvent.setup();
    renderBar();
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('Purchase');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menu', { name: 'Purchase' })).toBeInTheDocument();
    expect(item('Purchase')).toHaveAttribute('aria-expanded', 'true');
    expect(focused()).toBe('Purchase Orders');
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('Supplier List');
    await user.keyboard('{Home}{ArrowDown}');
    expect(focused()).toBe('EUDR Tracking');
    // Right opens the nested menu, Left closes it and returns to its entry.
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('menu', { name: 'EUDR Tracking' })).toBeInTheDocument();
    expect(focused()).toBe('Raw Materials');
    await user.keyboard('{ArrowLeft}');
    expect(screen.queryByRole('menu', { name: 'EUDR Tracking' })).toBeNull();
    expect(focused()).toBe('EUDR Tracking');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focused()).toBe('Purchase');
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('Supplier List');
    // Left and Right on an entry without a nested menu go to the neighbouring menu, open.
    await user.keyboard('{ArrowRight}');
    expect(screen.queryByRole('menu', { name: 'Purchase' })).toBeNull();
    expect(focused()).toBe('Reports');
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('Sales');
    expect(screen.queryByRole('menu')).toBeNull();
    await user.keyboard('{End}');
    expect(focused()).toBe('Reports');
  });

  it('moves to the neighbouring menu from inside a menu, opened on its first entry', async () => {
    const user = userEvent.setup();
    renderBar();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(focused()).toBe('Sales Orders');
    await user.keyboard('{ArrowRight}');
    expect(screen.queryByRole('menu', { name: 'Sales' })).toBeNull();
    expect(screen.getByRole('menu', { name: 'Purchase' })).toBeInTheDocument();
    expect(focused()).toBe('Purchase Orders');
    await user.keyboard('{ArrowLeft}');
    expect(focused()).toBe('Sales Orders');
  });

  it('follows a link chosen with the keyboard and closes', async () => {
    const user = userEvent.setup();
    renderBar();
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByTestId('where')).toHaveTextContent('/sales/invoices');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens on a click, closes on a second click, on a click elsewhere and when the focus leaves', async () => {
    const user = userEvent.setup();
    renderBar();
    await user.click(item('Sales'));
    expect(screen.getByRole('menu', { name: 'Sales' })).toBeInTheDocument();
    await user.click(item('Sales'));
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(item('Sales'));
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
    await user.click(item('Purchase'));
    await user.click(item('Purchase Orders'));
    expect(screen.getByTestId('where')).toHaveTextContent('/purchase/orders');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens as the mouse passes over it, keeps open when then clicked, and closes after the mouse leaves', () => {
    vi.useFakeTimers();
    try {
      renderBar();
      const sales = item('Sales').parentElement as HTMLElement;
      fireEvent.pointerEnter(sales, { pointerType: 'mouse' });
      expect(screen.getByRole('menu', { name: 'Sales' })).toBeInTheDocument();
      fireEvent.click(item('Sales'));
      expect(screen.getByRole('menu', { name: 'Sales' })).toBeInTheDocument();
      fireEvent.pointerLeave(sales, { pointerType: 'mouse' });
      act(() => {
        vi.advanceTimersByTime(500);
      });
      // Clicked open: it stays until closed.
      expect(screen.getByRole('menu', { name: 'Sales' })).toBeInTheDocument();
      fireEvent.click(item('Sales'));
      const purchase = item('Purchase').parentElement as HTMLElement;
      fireEvent.pointerEnter(purchase, { pointerType: 'mouse' });
      fireEvent.pointerEnter(item('EUDR Tracking'), { pointerType: 'mouse' });
      expect(screen.getByRole('menu', { name: 'EUDR Tracking' })).toBeInTheDocument();
      fireEvent.pointerLeave(purchase, { pointerType: 'mouse' });
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(screen.getByRole('menu', { name: 'Purchase' })).toBeInTheDocument();
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(screen.queryByRole('menu')).toBeNull();
      // A touch does not open by hovering.
      fireEvent.pointerEnter(sales, { pointerType: 'touch' });
      expect(screen.queryByRole('menu')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks the current page and the menus holding it', async () => {
    const user = userEvent.setup();
    renderBar('/purchase/eudr/raw-materials', '/purchase/eudr/raw-materials');
    expect(item('Purchase').className).toContain('barSelected');
    expect(item('Sales').className).not.toContain('barSelected');
    await user.click(item('Purchase'));
    expect(item('EUDR Tracking').className).toContain('selected');
    await user.click(item('EUDR Tracking'));
    expect(item('Raw Materials')).toHaveAttribute('aria-current', 'page');
    expect(item('Supplier Policies')).not.toHaveAttribute('aria-current');
  });
});

describe('MenuButton', () => {
  function renderButton(onSelect = vi.fn()) {
    const entries: MenuNode[] = [
      { key: 'profile', label: 'Profile', to: '/profile' },
      { key: 'settings', label: 'Settings', onSelect },
      { key: 'users', label: 'User Management', children: [{ key: 'list', label: 'User List', to: '/user' }] },
      { key: 'div', divider: true },
      { key: 'off', label: 'Disabled', disabled: true, onSelect },
      { key: 'out', label: 'Sign Out', danger: true, onSelect },
    ];
    const element = (
      <>
        <MenuButton entries={entries} label="User menu" testId="menu-button" align="end">
          Ada
        </MenuButton>
        <Where />
      </>
    );
    render(<RouterProvider router={createMemoryRouter([{ path: '*', element }])} />);
    return onSelect;
  }

  it('opens on its first entry from a click or a key, on its last with Up, and Escape returns to the button', async () => {
    const user = userEvent.setup();
    renderButton();
    const button = screen.getByRole('button', { name: 'User menu' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menu', { name: 'User menu' }).id).toBe(button.getAttribute('aria-controls'));
    expect(focused()).toBe('Profile');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{ArrowUp}');
    // The disabled entry is skipped by the keys.
    expect(focused()).toBe('Sign Out');
    await user.keyboard('{ArrowUp}');
    expect(focused()).toBe('User Management');
    expect(screen.getByRole('separator')).toBeInTheDocument();
  });

  it('opens a nested menu towards the start with Left, and runs an action chosen with the keyboard', async () => {
    const user = userEvent.setup();
    const onSelect = renderButton();
    screen.getByRole('button', { name: 'User menu' }).focus();
    await user.keyboard('{Enter}{ArrowDown}{ArrowDown}');
    expect(focused()).toBe('User Management');
    await user.keyboard('{ArrowLeft}');
    expect(focused()).toBe('User List');
    await user.keyboard('{ArrowRight}');
    expect(focused()).toBe('User Management');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'User menu' }));
  });

  it('does nothing for a disabled entry, and follows a link', async () => {
    const user = userEvent.setup();
    const onSelect = renderButton();
    await user.click(screen.getByRole('button', { name: 'User menu' }));
    expect(item('Disabled')).toHaveAttribute('aria-disabled', 'true');
    await user.click(item('Disabled'));
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(item('Profile'));
    expect(screen.getByTestId('where')).toHaveTextContent('/profile');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
