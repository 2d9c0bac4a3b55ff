import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { installmentPlansResult } from '../../src/core/endpoint-api.ts';
import { parse } from '../../src/core/shape.ts';
import { PLANS_ANSWER } from './fake-gateway.ts';
import { setup } from './harness.ts';

const harness = setup();

afterEach(() => {
  assert.deepEqual(harness.gateway.problems, [], 'the endpoint sent the gateway a request it would refuse');
  harness.gateway.reset();
});

describe('POST /installment-plans when one plan cannot be quoted', () => {
  const [nbe, ...others] = PLANS_ANSWER.installment_detail.issuer_detail;
  const fixedPlan = (plan_code: string, fees_amount: number | string) => ({
    ...nbe!.plan_details[0]!,
    plan_code,
    fees_type: 'Fixed',
    fees_amount,
    amountPerMonth: null,
  });

  for (const [what, fees_amount, rule] of [
    ['a negative fixed fee', -500, 'negative'],
    ['a fixed fee of more than 10 digits', 12_345_678_901, 'out_of_range'],
  ] as const) {
    it(`answers the other plans, and tells the merchant about the plan with ${what}`, async () => {
      const issuer = { ...nbe!, plan_details: [...nbe!.plan_details, fixedPlan('FIXBAD', fees_amount)] };
      harness.gateway.answer('GET_INSTALLMENTS_PLANS', () => ({
        code: '62000',
        fields: { installment_detail: { issuer_detail: [issuer, ...others] } } as never,
      }));
      const logged = harness.logs.length;
      const { status, body } = await harness.post('/installment-plans', { merchant_reference: 'order-1001', language: 'en' });
      assert.equal(status, 200);
      const result = parse(installmentPlansResult, body);
      assert.deepEqual(
        result.issuers.map((answered) => [answered.issuer_code, answered.plan_details.map((plan) => plan.plan_code)]),
        [['NBE01', ['NBE6', 'FIXBAD']]],
        'the plans answer is passed on; the element leaves out the plan it cannot quote',
      );
      const warnings = harness.logs.slice(logged).map((line) => JSON.parse(line)).filter((line) => line.level !== 'info');
      assert.deepEqual(
        warnings.map(({ event, issuer_code, plan_code, field, rule: broken }) => ({ event, issuer_code, plan_code, field, rule: broken })),
        [{ event: 'installment_plan_unquotable', issuer_code: 'NBE01', plan_code: 'FIXBAD', field: 'fees_amount', rule }],
      );
    });
  }
});
