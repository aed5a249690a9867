/**
 * dayjs in the app's language: the only module that imports `dayjs` (eslint: no-restricted-imports), so
 * the library and its Chinese locale load with the first page that works with dates (the pickers, the
 * forms), not with the app's entry. Ant Design's date pickers read dayjs's global locale, which follows
 * the language the user picks.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { i18n } from '@/i18n';

function follow(language: string | undefined): void {
  dayjs.locale(language === 'zh' ? 'zh-cn' : 'en');
}

follow(i18n.language);
i18n.on('languageChanged', follow);

export default dayjs;
export type { Dayjs, ConfigType } from 'dayjs';
