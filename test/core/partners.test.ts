import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { financingTotal } from '../../src/core/partners.ts';

describe('financingTotal', () => {
  it('adds the down payment and every monthly instalment of the tenure', () => {
    // EGP 250.00 down, then 12 × EGP 187.50.
    assert.equal(financingTotal(25_000, 12, 18_750), 250_000);
  });

  it('is the down payment alone when nothing is left to pay monthly', () => {
    assert.equal(financingTotal(25_000, 6, 0), 25_000);
  });

  it('stays exact in minor units where amounts in major units as floats would not', () => {
    // 0.1 + 3 × 0.7 is 2.1999999999999997 in floats; in piastres it is 10 + 3 × 70 = 220.
    assert.equal(financingTotal(10, 3, 70), 220);
  });
});
