/**
 * Which installments fields each answer carries (the specification's endpoint rows): a redirection
 * adds `installments` and `number_of_installments`; a direct operation adds `installments`,
 * `plan_code`, `issuer_code` and `number_of_installments`. A 3-D Secure challenge does not change
 * which flow the payment belongs to, so the answer after it carries the same fields as the flow's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testCard } from '../../src/sandbox/test-cards.ts';
import { answerChallenge, api, FUTURE_EXPIRY, hostedFields, payOnHostedPage, returnedAnswer, rig } from './support.ts';

/** The MasterCard 3-D Secure card: its BIN belongs to Sandbox Delta Bank (EGMIX1), whose EGF06 is 6 months. */
const THREE_DS_CARD = testCard('3ds', 'MASTERCARD').number;

describe('installments fields after a 3-D Secure challenge', () => {
  describe('when the challenge follows a redirection (installments STANDALONE on the hosted page)', () => {
    for (const decision of ['approve', 'fail'] as const) {
      it(`answers the months only, as the redirection row lists, not the plan or issuer codes (${decision})`, async () => {
        const { gateway } = rig();
        const paid = await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE' }), {
          card_number: THREE_DS_CARD,
          installment_plan: 'EGMIX1:EGF06',
        });
        assert.equal(paid.status, 303, 'the issuer asks for a challenge');
        const answer = await returnedAnswer(await answerChallenge(gateway, paid.headers.get('location') ?? '', decision));
        assert.equal(answer['response_code'], decision === 'approve' ? '14000' : '13004');
        assert.equal(answer['installments'], 'STANDALONE');
        assert.equal(answer['number_of_installments'], '6');
        assert.ok(!('plan_code' in answer), 'no plan_code');
        assert.ok(!('issuer_code' in answer), 'no issuer_code');
      });
    }

    it('answers the same installments fields as the same redirection without a challenge', async () => {
      const { gateway } = rig();
      const plain = await returnedAnswer(
        await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE', merchant_reference: 'plain-1' }), {
          card_number: testCard('success', 'MASTERCARD').number,
          installment_plan: 'EGMIX1:EGF06',
        }),
      );
      const paid = await payOnHostedPage(gateway, await hostedFields({ installments: 'STANDALONE', merchant_reference: 'challenged-1' }), {
        card_number: THREE_DS_CARD,
        installment_plan: 'EGMIX1:EGF06',
      });
      const challenged = await returnedAnswer(await answerChallenge(gateway, paid.headers.get('location') ?? '', 'approve'));
      const installmentsFields = (answer: Record<string, string>) =>
        Object.keys(answer).filter((name) => /installment|plan_code|issuer_code/.test(name)).sort();
      assert.deepEqual(installmentsFields(challenged), installmentsFields(plain));
    });
  });

  describe('when the challenge follows a direct operation (installments YES)', () => {
    it('still answers plan_code and issuer_code, as the direct operation row lists', async () => {
      const { gateway } = rig();
      const held = await api(gateway, {
        command: 'PURCHASE',
        merchant_reference: 'direct-1',
        amount: '250000',
        currency: 'EGP',
        language: 'en',
        card_number: THREE_DS_CARD,
        expiry_date: FUTURE_EXPIRY.yymm,
        card_security_code: '123',
        installments: 'YES',
        plan_code: 'EGF06',
        issuer_code: 'EGMIX1',
        return_url: 'http://shop.test/pg/return',
      });
      assert.ok(typeof held['3ds_url'] === 'string', 'the issuer asks for a challenge');
      assert.deepEqual([held['plan_code'], held['issuer_code'], held['number_of_installments']], ['EGF06', 'EGMIX1', '6']);
      const answer = await returnedAnswer(await answerChallenge(gateway, String(held['3ds_url']), 'approve'));
      assert.equal(answer['response_code'], '14000');
      assert.deepEqual(
        [answer['installments'], answer['plan_code'], answer['issuer_code'], answer['number_of_installments']],
        ['YES', 'EGF06', 'EGMIX1', '6'],
      );
    });
  });
});
