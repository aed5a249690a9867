import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { buildAntTheme } from './buildTheme';
import { useThemeState } from './themeStore';

/** docs/specification.md section 9: component prefix p. */
export const PREFIX_CLS = 'p';
export const ICON_PREFIX_CLS = 'picon';

/**
 * Ant Design's ConfigProvider with our theme, layers, ripple and the zh_CN / en_US locale (the date
 * pickers' dayjs follows the language in src/shared/utils/dayjs.ts, loaded with the pages that use it).
 * Ant Design's App (message, notification and modal hooks) is provided by the layouts, so the
 * login page does not load their code.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const state = useThemeState();
  const { i18n } = useTranslation();
  const zh = i18n.language === 'zh';
  const antTheme = useMemo(() => buildAntTheme(state), [state]);

  return (
    <ConfigProvider
      prefixCls={PREFIX_CLS}
      iconPrefixCls={ICON_PREFIX_CLS}
      theme={antTheme}
      locale={zh ? zhCN : enUS}
      wave={{ disabled: !state.ripple }}
    >
      {children}
    </ConfigProvider>
  );
}
