import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromMinorUnits } from '../../src/core/amounts.ts';
import { validate } from '../../src/core/field-errors.ts';
import { formulaKindOf, matchIssuerByBin, monthlyInstallment, type InstallmentIssuer } from '../../src/core/installments.ts';
import { installmentsPlansResponse } from '../../src/core/schemas/index.ts';
import { INSTALLMENT_ISSUERS } from '../../src/sandbox/installment-issuers.ts';
import { TEST_CARDS } from '../../src/sandbox/test-cards.ts';
import { phpSdkAccepts } from './loopback.ts';
import { api, M, rig, verifiesAsGateway } from './support.ts';

const query = (overrides: Record<string, unknown> = {}) => ({ query_command: 'GET_INSTALLMENTS_PLANS', language: 'en', ...overrides });

function issuersOf(answer: Record<string, unknown>): InstallmentIssuer[] {
  return (answer['installment_detail'] as { issuer_detail: InstallmentIssuer[] }).issuer_detail;
}

describe('installment plans (GET_INSTALLMENTS_PLANS)', () => {
  it('lists issuers of the three installment countries (62000), signed and in the spec’s shape', async () => {
    const { gateway } = rig();
    const answer = await api(gateway, query());
    assert.equal(answer['response_code'], '62000');
    assert.equal(answer['status'], '62');
    assert.ok(await verifiesAsGateway(answer));
    const result = validate(installmentsPlansResponse, answer, 'en');
    assert.ok(result.ok, JSON.stringify(result.ok ? [] : result.errors));
    const countries = new Set(issuersOf(answer).map((issuer) => issuer.country_code));
    assert.deepEqual([...countries].sort(), ['ARE', 'EGY', 'SAU']);
  });

  it('signs the answer as the official SDKs verify it: installment_detail left out of the string', async () => {
    const { gateway } = rig();
    const answer = await api(gateway, query({ amount: '60000', currency: 'SAR' }));
    assert.ok(phpSdkAccepts(answer, M.responsePhrase), 'a verifier following the PHP SDK accepts it');
    const changedPlans = { ...answer, installment_detail: { issuer_detail: [] } };
    assert.ok(await verifiesAsGateway(changedPlans), 'the plans are not part of the signed string');
    assert.ok(!(await verifiesAsGateway({ ...answer, amount: '1' })), 'every other field still is');
  });

  it('covers every formula kind of the spec', () => {
    const kinds = new Set(
      INSTALLMENT_ISSUERS.flatMap((issuer) => issuer.plan_details.map((plan) => formulaKindOf(plan, issuer))),
    );
    assert.deepEqual([...kinds].sort(), ['fixed', 'percentage-flat', 'percentage-flat-islamic', 'reducing']);
  });

  it('has an issuer in every country for the Visa and the MasterCard test cards', () => {
    for (const country of ['ARE', 'SAU', 'EGY']) {
      const issuers = INSTALLMENT_ISSUERS.filter((issuer) => issuer.country_code === country);
      for (const card of TEST_CARDS) assert.ok(matchIssuerByBin(issuers, card.number), `${card.number} in ${country}`);
    }
  });

  it('narrows to the plans of an amount and currency, priced for that amount by the core formulas', async () => {
    const { gateway } = rig();
    const answer = await api(gateway, query({ amount: '60000', currency: 'SAR' }));
    const issuers = issuersOf(answer);
    assert.deepEqual(
      issuers.map((issuer) => issuer.issuer_code),
      ['SAREDU1', 'SAISLM1'],
    );
    for (const issuer of issuers) {
      for (const plan of issuer.plan_details) {
        assert.equal(plan.currency_code, 'SAR');
        assert.equal(plan.amountPerMonth, fromMinorUnits(monthlyInstallment(plan, issuer, 60000, 'SAR'), 'SAR'));
      }
    }
    assert.ok(!issuers.flatMap((issuer) => issuer.plan_details).some((plan) => plan.plan_code === 'SAR12'), 'below the 12-month minimum');
  });

  it('narrows to one issuer by issuer_code', async () => {
    const { gateway } = rig();
    const answer = await api(gateway, query({ issuer_code: 'EGFIX1' }));
    assert.deepEqual(issuersOf(answer).map((issuer) => issuer.issuer_code), ['EGFIX1']);
    assert.equal(answer['issuer_code'], 'EGFIX1');
  });

  it('asks for the currency when an amount is given without one (00001)', async () => {
    const { gateway } = rig();
    assert.equal((await api(gateway, query({ amount: '1000' })))['response_code'], '00001');
  });
});
