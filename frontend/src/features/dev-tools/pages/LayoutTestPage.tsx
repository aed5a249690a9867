import { App, Button, Card, Descriptions, Drawer, Dropdown, Flex, Grid, Modal, Popover, Select, Table, Tag, theme, Tooltip, Typography } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '@/shared/components/PageContainer';
import { MOBILE_MENU_QUERY, useIsMobileMenu } from '@/shared/hooks/useMediaQuery';
import { LAYERS } from '@/shared/theme/buildTheme';
import { useThemeState } from '@/shared/theme/themeStore';
import styles from './DevTools.module.css';

const BREAKPOINTS = ['xs', 'sm', 'md', 'lg', 'xl', 'xxl'] as const;
/** The tokens worth seeing when checking a theme, colours first. */
const COLOR_TOKENS = [
  'colorPrimary',
  'colorPrimaryBg',
  'colorText',
  'colorTextSecondary',
  'colorBgLayout',
  'colorBgContainer',
  'colorBgElevated',
  'colorBorder',
  'colorSuccess',
  'colorWarning',
  'colorError',
  'colorInfo',
] as const;
const SIZE_TOKENS = ['borderRadius', 'controlHeight', 'fontSize', 'fontWeightStrong', 'lineWidth', 'zIndexPopupBase'] as const;
const LAYER_ORDER = (Object.keys(LAYERS) as (keyof typeof LAYERS)[]).sort((a, b) => LAYERS[a] - LAYERS[b]);
const LOWEST = LAYERS[LAYER_ORDER[0] ?? 'tooltip'];
const HIGHEST = LAYERS[LAYER_ORDER[LAYER_ORDER.length - 1] ?? 'toast'];
/** Bar height (%) of a layer: the order and the gaps between the levels, readable. */
const barHeight = (level: number) => Math.round(25 + ((level - LOWEST) / (HIGHEST - LOWEST || 1)) * 75);

function subscribeResize(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** Staff only: the layout's building blocks as they are now: breakpoint, theme tokens, layer levels. */
export default function LayoutTestPage() {
  const { t } = useTranslation('devTools');
  const { message, notification } = App.useApp();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const mobile = useIsMobileMenu();
  const width = useSyncExternalStore(subscribeResize, () => window.innerWidth);
  const state = useThemeState();
  const [modalOpen, setModalOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const active = BREAKPOINTS.filter((bp) => screens[bp]);
  const current = active[active.length - 1];

  const layerDemo = (
    <Flex gap="small" wrap>
      <Tooltip title={t('layout.tooltipText')}>
        <Button>{t('layout.tooltip')}</Button>
      </Tooltip>
      <Dropdown menu={{ items: [1, 2, 3].map((n) => ({ key: n, label: t('layout.menuItem', { n }) })) }}>
        <Button>{t('layout.menu')}</Button>
      </Dropdown>
      <Popover content={t('layout.overlayText')} trigger="click">
        <Button>{t('layout.overlay')}</Button>
      </Popover>
      <Button onClick={() => void message.info(t('layout.toastText'))}>{t('layout.toast')}</Button>
    </Flex>
  );

  return (
    <PageContainer>
      <Card title={t('layout.breakpoint')} data-testid="layout-breakpoint">
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label={t('layout.width')}>{`${width}px`}</Descriptions.Item>
          <Descriptions.Item label={t('layout.current')}>{current ?? t('none')}</Descriptions.Item>
          <Descriptions.Item label={t('layout.mobileMenu')}>
            <Tag color={mobile ? 'orange' : 'green'} data-testid="layout-mobile-menu">
              {mobile ? t('layout.mobileOn') : t('layout.mobileOff')}
            </Tag>
            <Typography.Text type="secondary">{MOBILE_MENU_QUERY}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('layout.screens')}>
            <Flex gap={4} wrap>
              {BREAKPOINTS.map((bp) => (
                <Tag key={bp} color={screens[bp] ? 'blue' : undefined}>
                  {bp}
                </Tag>
              ))}
            </Flex>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Card title={t('layout.theme')} className={styles.block} data-testid="layout-theme">
        <Descriptions column={{ xs: 1, md: 3 }} size="small" bordered>
          <Descriptions.Item label={t('layout.mode')}>{state.dark ? t('layout.dark') : t('layout.light')}</Descriptions.Item>
          <Descriptions.Item label={t('layout.preset')}>{state.preset}</Descriptions.Item>
          <Descriptions.Item label={t('layout.primary')}>{state.primary}</Descriptions.Item>
          <Descriptions.Item label={t('layout.surface')}>{state.surface}</Descriptions.Item>
          <Descriptions.Item label={t('layout.ripple')}>{state.ripple ? t('layout.on') : t('layout.off')}</Descriptions.Item>
        </Descriptions>
        <div className={`${styles.swatches} ${styles.block}`}>
          {COLOR_TOKENS.map((name) => (
            <div key={name} className={styles.swatch}>
              <span className={styles.chip} style={{ background: token[name] }} />
              <span className={styles.swatchText}>
                <Typography.Text>{name}</Typography.Text>
                <Typography.Text type="secondary" copyable>
                  {token[name]}
                </Typography.Text>
              </span>
            </div>
          ))}
          {SIZE_TOKENS.map((name) => (
            <div key={name} className={styles.swatch}>
              <span className={styles.swatchText}>
                <Typography.Text>{name}</Typography.Text>
                <Typography.Text type="secondary">{String(token[name])}</Typography.Text>
              </span>
            </div>
          ))}
        </div>
      </Card>

      <Card title={t('layout.layers')} className={styles.block} data-testid="layout-layers">
        <div className={styles.layers} aria-hidden>
          {LAYER_ORDER.map((name) => (
            <div key={name} className={styles.layerBar} style={{ height: `${barHeight(LAYERS[name])}%` }}>
              {`${t(`layout.layer.${name}`)} ${LAYERS[name]}`}
            </div>
          ))}
        </div>
        <Table
          size="small"
          pagination={false}
          rowKey="name"
          dataSource={LAYER_ORDER.map((name) => ({ name, level: LAYERS[name] }))}
          columns={[
            { title: t('layout.layerName'), dataIndex: 'name', render: (name: keyof typeof LAYERS) => t(`layout.layer.${name}`) },
            { title: t('layout.level'), dataIndex: 'level', align: 'right' },
          ]}
        />
        <Typography.Paragraph type="secondary" className={styles.block}>
          {t('layout.layersHint')}
        </Typography.Paragraph>
        <Flex gap="small" wrap>
          {layerDemo}
          <Button onClick={() => void notification.info({ title: t('layout.notification'), description: t('layout.toastText') })}>
            {t('layout.notification')}
          </Button>
          <Button type="primary" onClick={() => setModalOpen(true)}>
            {t('layout.openModal')}
          </Button>
          <Button onClick={() => setDrawerOpen(true)}>{t('layout.openDrawer')}</Button>
        </Flex>
      </Card>

      <Modal open={modalOpen} onCancel={() => setModalOpen(false)} footer={null} title={t('layout.modalTitle')}>
        <Typography.Paragraph>{t('layout.insideModal')}</Typography.Paragraph>
        <Flex vertical gap="small">
          {layerDemo}
          <Select
            className={styles.typeSelect}
            placeholder={t('layout.selectInModal')}
            options={[1, 2, 3].map((n) => ({ value: n, label: t('layout.menuItem', { n }) }))}
          />
        </Flex>
      </Modal>
      <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title={t('layout.drawerTitle')}>
        <Typography.Paragraph>{t('layout.insideModal')}</Typography.Paragraph>
        {layerDemo}
      </Drawer>
    </PageContainer>
  );
}
