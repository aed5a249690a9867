import { describe, expect, it } from 'vitest';
import { i18n, initI18n } from '@/i18n';
import { allResources } from '@/i18n/resources';
import dayjs from './dayjs';

describe('dayjs in the app language', () => {
  it('follows the language the user picks: month names for the date pickers', async () => {
    initI18n('en', allResources());
    await i18n.changeLanguage('zh');
    expect(dayjs.locale()).toBe('zh-cn');
    expect(dayjs('2026-11-26').format('MMMM')).toBe('十一月');
    await i18n.changeLanguage('en');
    expect(dayjs.locale()).toBe('en');
    expect(dayjs('2026-11-26').format('MMMM')).toBe('November');
  });
});
