import { TranslationOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '@/i18n';
import { LANGUAGES, isLanguage } from '@/i18n/language';
import styles from './LanguageSwitcher.module.css';

/**
 * zh / en switch; the UI changes at once and the choice is stored under app-language. A native select,
 * borderless like the header's other tools: it is on the login page, where Ant Design's Select (its
 * virtual list and popup) would be most of the page's code (docs/performance.md), and a phone shows its
 * own picker.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <span className={[styles.switcher, className].filter(Boolean).join(' ')}>
      <TranslationOutlined className={styles.icon} />
      <select
        className={styles.select}
        value={i18n.language}
        onChange={(event) => {
          const { value } = event.target;
          if (isLanguage(value)) void changeLanguage(value);
        }}
        aria-label={t('language')}
        data-testid="language-switcher"
      >
        {LANGUAGES.map((lang) => (
          <option key={lang} value={lang}>
            {t(`languages.${lang}`)}
          </option>
        ))}
      </select>
    </span>
  );
}
