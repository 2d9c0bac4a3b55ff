/**
 * Amounts and numbers in the browser: `formatMoney` and `formatCount` write, without
 * `Intl.NumberFormat` (whose first use in a tab costs a phone about 200 ms), the text this
 * browser's own `Intl.NumberFormat` writes, in English and Arabic.
 */
import { expect } from '@open-wc/testing';
import { formatMoney } from '../../../src/core/amounts.ts';
import { formatCount } from '../../../src/core/language.ts';
import { intlCount, intlMoney, MINOR_AMOUNTS, REGION_CURRENCIES } from '../../core/intl-oracle.ts';

describe('amounts as the browser writes them', () => {
  it('match the browser\'s Intl.NumberFormat for the region\'s currencies, in both languages', () => {
    for (const currency of REGION_CURRENCIES) {
      for (const language of ['en', 'ar'] as const) {
        for (const minor of MINOR_AMOUNTS) {
          expect(formatMoney(minor, currency, language), `${currency} ${language} ${minor}`).to.equal(intlMoney(minor, currency, language));
        }
      }
    }
  });

  it('match it for Arabic counts', () => {
    for (const value of ['6', '1200', '12.50', '-12']) expect(formatCount(value, 'ar'), value).to.equal(intlCount(value));
  });
});
