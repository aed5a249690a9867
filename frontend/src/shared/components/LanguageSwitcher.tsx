import { TranslationOutlined } from '@ant-design/icons';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '@/i18n';
import { LANGUAGES, isLanguage } from '@/i18n/language';

/** zh / en switch; the UI changes at once and the choice is stored under app-language. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Select
      className={className}
      value={i18n.language}
      onChange={(value: string) => {
        if (isLanguage(value)) void changeLanguage(value);
      }}
      options={LANGUAGES.map((lang) => ({ value: lang, label: t(`languages.${lang}`) }))}
      prefix={<TranslationOutlined />}
      aria-label={t('language')}
      data-testid="language-switcher"
      popupMatchSelectWidth={false}
      variant="borderless"
    />
  );
}
