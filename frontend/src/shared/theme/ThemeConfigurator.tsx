import { CheckOutlined } from '@ant-design/icons';
import { Button, Drawer, Flex, Segmented, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  PRESETS,
  PRIMARY_COLORS,
  SURFACE_PALETTES,
  primarySwatch,
  surfaceSwatch,
  type Preset,
} from './themeConfig';
import { updateTheme, useThemeState } from './themeStore';
import styles from './ThemeConfigurator.module.css';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** The theme switcher panel (docs/specification.md section 2), opened from Settings. */
export function ThemeConfigurator({ open, onClose }: Props) {
  const { t } = useTranslation('theme');
  const state = useThemeState();

  return (
    <Drawer title={t('title')} open={open} onClose={onClose} size="default" data-testid="theme-configurator">
      <Flex vertical gap="large">
        <section>
          <Typography.Text strong>{t('mode')}</Typography.Text>
          <Flex align="center" gap="small" className={styles.row}>
            <Switch
              checked={state.dark}
              onChange={(dark) => updateTheme({ dark })}
              aria-label={t('darkMode')}
              data-testid="theme-dark"
            />
            <span>{state.dark ? t('dark') : t('light')}</span>
          </Flex>
        </section>

        <section>
          <Typography.Text strong>{t('primary')}</Typography.Text>
          <div className={styles.swatches} role="radiogroup" aria-label={t('primary')}>
            {PRIMARY_COLORS.map((name) => (
              <Tooltip key={name} title={t(`colors.${name}`)}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={state.primary === name}
                  aria-label={t(`colors.${name}`)}
                  data-testid={`primary-${name}`}
                  className={styles.swatch}
                  style={{ backgroundColor: primarySwatch(name, state.surface) }}
                  onClick={() => updateTheme({ primary: name })}
                >
                  {state.primary === name ? <CheckOutlined className={styles.check} /> : null}
                </button>
              </Tooltip>
            ))}
          </div>
        </section>

        <section>
          <Typography.Text strong>{t('surface')}</Typography.Text>
          <div className={styles.swatches} role="radiogroup" aria-label={t('surface')}>
            {SURFACE_PALETTES.map((name) => (
              <Tooltip key={name} title={t(`surfaces.${name}`)}>
                <button
                  type="button"
                  role="radio"
                  aria-checked={state.surface === name}
                  aria-label={t(`surfaces.${name}`)}
                  data-testid={`surface-${name}`}
                  className={styles.swatch}
                  style={{ backgroundColor: surfaceSwatch(name) }}
                  onClick={() => updateTheme({ surface: name })}
                >
                  {state.surface === name ? <CheckOutlined className={styles.check} /> : null}
                </button>
              </Tooltip>
            ))}
          </div>
        </section>

        <section>
          <Typography.Text strong>{t('preset')}</Typography.Text>
          <div className={styles.row}>
            <Segmented<Preset>
              options={PRESETS.map((p) => ({ value: p, label: t(`presets.${p}`) }))}
              value={state.preset}
              onChange={(preset) => updateTheme({ preset })}
              data-testid="theme-preset"
            />
          </div>
        </section>

        <section>
          <Typography.Text strong>{t('ripple')}</Typography.Text>
          <Flex align="center" gap="small" className={styles.row}>
            <Switch
              checked={state.ripple}
              onChange={(ripple) => updateTheme({ ripple })}
              aria-label={t('ripple')}
              data-testid="theme-ripple"
            />
            <span>{state.ripple ? t('on') : t('off')}</span>
          </Flex>
        </section>

        <Button onClick={onClose}>{t('close')}</Button>
      </Flex>
    </Drawer>
  );
}
