/**
 * ISO 3166-1 alpha-2 country codes (the server's list: backend/apps/suppliers/countries.py) and the EU
 * member states (backend/apps/tenancy/operator.py). Names come from the browser's Intl.DisplayNames in
 * the user's language, so no country name is kept in the bundle.
 */
export const COUNTRY_CODES: readonly string[] = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ
BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO
DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN
HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT
LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR
NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN
SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN
VU WF WS YE YT ZA ZM ZW`.split(/\s+/);

/** The 27 member states of the European Union. */
export const EU_MEMBER_STATES: readonly string[] =
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');

const namesCache = new Map<string, Intl.DisplayNames | null>();

function displayNames(language: string): Intl.DisplayNames | null {
  const locale = language === 'zh' ? 'zh-CN' : 'en';
  if (!namesCache.has(locale)) {
    try {
      namesCache.set(locale, new Intl.DisplayNames([locale], { type: 'region' }));
    } catch {
      namesCache.set(locale, null);
    }
  }
  return namesCache.get(locale) ?? null;
}

/** The country's name in the language; the code itself when the browser does not know it. */
export function countryName(code: string | null | undefined, language: string): string {
  if (!code) return '';
  return displayNames(language)?.of(code.toUpperCase()) ?? code.toUpperCase();
}

export interface CountryOption {
  value: string;
  label: string;
}

/** Select options "Name (CC)" for the given codes (all by default), sorted by name in the language. */
export function countryOptions(language: string, codes: readonly string[] = COUNTRY_CODES): CountryOption[] {
  const collator = new Intl.Collator(language === 'zh' ? 'zh-CN' : 'en');
  return codes
    .map((code) => ({ value: code, label: `${countryName(code, language)} (${code})` }))
    .sort((a, b) => collator.compare(a.label, b.label));
}
