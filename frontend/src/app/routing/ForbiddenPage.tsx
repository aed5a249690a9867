import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UserType } from '@/api/types';
import { paths } from '@/shared/routing/paths';

/** What the page needs that the signed-in user lacks: the forbidden page says it in words. */
export type ForbiddenNeed =
  | { kind: 'staff' }
  | { kind: 'userTypes'; types: readonly UserType[] }
  | { kind: 'permission'; permission: string; page: string };

export function ForbiddenPage({ need }: { need?: ForbiddenNeed }) {
  const { t } = useTranslation();
  let description = t('forbidden.description');
  if (need?.kind === 'staff') description = t('forbidden.needStaff');
  if (need?.kind === 'userTypes') {
    const types = need.types.map((type) => t(`forbidden.userType.${type}`)).join(t('forbidden.or'));
    description = t('forbidden.needUserType', { types });
  }
  if (need?.kind === 'permission') {
    description = t('forbidden.needPermission', { page: t(`nav:${need.page}`), permission: need.permission });
  }
  return (
    <Result
      status="403"
      title={t('forbidden.title')}
      subTitle={<span data-testid="forbidden-need">{description}</span>}
      extra={
        <Link to={paths.home()}>
          <Button type="primary">{t('actions.backHome')}</Button>
        </Link>
      }
      data-testid="forbidden"
    />
  );
}
