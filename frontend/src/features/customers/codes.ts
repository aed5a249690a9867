/** ISO 3166-1 alpha-2 countries and ISO 4217 currencies, named in the user's language by the browser. */

const COUNTRIES = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV
BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES
ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE
IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY
MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU
NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM
SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE
VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/);

export interface CodeOption {
  value: string;
  label: string;
}

function regionNames(language: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([language === 'zh' ? 'zh-CN' : 'en'], { type: 'region' });
  } catch {
    return null;
  }
}

export function countryName(code: string, language: string): string {
  if (!code) return '';
  return regionNames(language)?.of(code) ?? code;
}

export function countryOptions(language: string): CodeOption[] {
  const names = regionNames(language);
  return COUNTRIES.map((code) => ({ value: code, label: `${names?.of(code) ?? code} (${code})` })).sort((a, b) =>
    a.label.localeCompare(b.label, language === 'zh' ? 'zh-CN' : 'en'),
  );
}

const FALLBACK_CURRENCIES = ['EUR', 'USD', 'CNY', 'GBP', 'SEK', 'DKK', 'NOK', 'PLN', 'CZK', 'CHF', 'HUF', 'JPY'];

export function currencyOptions(): CodeOption[] {
  let codes: string[];
  try {
    codes = Intl.supportedValuesOf('currency');
  } catch {
    codes = FALLBACK_CURRENCIES;
  }
  return codes.map((code) => ({ value: code, label: code }));
}

/** `{contacts: {"0": {name: [..]}}}` or `{contacts: [{name: [..]}]}` -> [["contacts", 0, "name"], [..]]. */
export function flattenFieldErrors(data: unknown, path: (string | number)[] = []): { name: (string | number)[]; errors: string[] }[] {
  if (Array.isArray(data)) {
    if (data.every((item) => typeof item === 'string')) return path.length > 0 ? [{ name: path, errors: data }] : [];
    return data.flatMap((item, index) => flattenFieldErrors(item, [...path, index]));
  }
  if (typeof data === 'object' && data !== null) {
    return Object.entries(data).flatMap(([key, value]) => flattenFieldErrors(value, [...path, /^\d+$/.test(key) ? Number(key) : key]));
  }
  if (typeof data === 'string' && path.length > 0) return [{ name: path, errors: [data] }];
  return [];
}
