import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fromMinorUnits } from '../../src/core/amounts.ts';
import { validate } from '../../src/core/field-errors.ts';
import { flatVariantOf, formulaKindOf, matchIssuerByBin, monthlyInstallment, type InstallmentIssuer } from '../../src/core/installments.ts';
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

  it('has a non-Islamic flat issuer of each variant, named by its formula', () => {
    const variants = INSTALLMENT_ISSUERS.flatMap((issuer) =>
      issuer.plan_details
        .filter((plan) => formulaKindOf(plan, issuer) === 'percentage-flat')
        .map((plan) => [issuer.issuer_code, flatVariantOf(plan, issuer, Number(plan.minimum_amount), plan.currency_code)] as const),
    );
    const byIssuer = Object.fromEntries(variants);
    assert.deepEqual(byIssuer, {
      AEFLAT1: { variant: 'per-month', decidedBy: 'formula' },
      EGMIX1: { variant: 'one-off', decidedBy: 'formula' },
    });
  });

  it('prices each flat variant as its issuer charges it: the fee for every month, or the fee once', async () => {
    const { gateway } = rig();
    const aed = issuersOf(await api(gateway, query({ amount: '120000', currency: 'AED', issuer_code: 'AEFLAT1' })));
    // 1,200.00 AED at 1% for every month: 3 months 1,236.00 (412.00 a month), 6: 1,272.00, 12: 1,344.00.
    assert.deepEqual(
      aed[0]?.plan_details.map((plan) => [plan.plan_code, plan.amountPerMonth]),
      [['AEF03', '412.00'], ['AEF06', '212.00'], ['AEF12', '112.00']],
    );
    const egp = issuersOf(await api(gateway, query({ amount: '250000', currency: 'EGP', issuer_code: 'EGMIX1' })));
    // 2,500.00 EGP at 2% once over 6 months: 2,550.00 in all, 425.00 a month (per month it would be 466.67).
    assert.equal(egp[0]?.plan_details.find((plan) => plan.plan_code === 'EGF06')?.amountPerMonth, '425.00');
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

  it('carries issuer_code at its top level when the answer lists one issuer, asked for or not; never when it lists several', async () => {
    const { gateway } = rig();
    // 70,000.00 SAR is beyond the Islamic bank's plans: only Sandbox Riyadh Bank serves it.
    const one = await api(gateway, query({ amount: '7000000', currency: 'SAR' }));
    assert.deepEqual(issuersOf(one).map((issuer) => issuer.issuer_code), ['SAREDU1']);
    assert.equal(one['issuer_code'], 'SAREDU1');
    assert.ok(await verifiesAsGateway(one), 'issuer_code is signed');
    assert.ok(phpSdkAccepts(one, M.responsePhrase));
    assert.ok(validate(installmentsPlansResponse, one, 'en').ok);
    const several = await api(gateway, query({ amount: '60000', currency: 'SAR' }));
    assert.equal(issuersOf(several).length, 2);
    assert.ok(!('issuer_code' in several), 'one code cannot name two issuers');
  });

  it('asks for the currency when an amount is given without one (00001)', async () => {
    const { gateway } = rig();
    assert.equal((await api(gateway, query({ amount: '1000' })))['response_code'], '00001');
  });
});
