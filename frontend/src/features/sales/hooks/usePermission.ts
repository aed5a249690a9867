export { useMayPermission } from '@/shared/session/permissions';
