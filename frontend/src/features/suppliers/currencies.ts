/** Currencies offered first; any three-letter ISO code is accepted. */
export const COMMON_CURRENCIES = ['EUR', 'USD', 'CNY', 'GBP', 'SEK', 'JPY', 'HKD', 'VND'];
