export { formatMoney, formatQty, formatUnitCost, useFormatters } from '@/shared/utils/numberFormat';
