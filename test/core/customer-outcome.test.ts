import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CUSTOMER_CANCEL_CODE, describeOutcome } from '../../src/core/customer-outcome.ts';

describe('describeOutcome: an outcome as the customer reads it', () => {
  it('calls a card turned down by its issuer a decline, with the reason in the customer’s language and another card to try', () => {
    const described = describeOutcome({ outcome: 'failure', response_code: '13002', status: '13' }, 'ar');
    assert.equal(described.kind, 'declined');
    assert.equal(described.title, 'تم رفض الدفع');
    assert.equal(described.reason, 'الرصيد غير كافٍ');
    assert.match(described.next, /جرّب بطاقة أخرى أو اتصل بالبنك/);
    assert.equal(described.tryAnotherCard, true);
  });

  it('treats an authorization’s decline (03xxx) and a failed 3-D Secure check like a purchase’s', () => {
    assert.equal(describeOutcome({ outcome: 'failure', response_code: '03001' }, 'en').kind, 'declined');
    assert.equal(describeOutcome({ outcome: 'failure', response_code: '13004' }, 'en').reason, '3-D Secure authentication failed');
  });

  it('does not offer another card when the financing partner or the request was refused', () => {
    const partner = describeOutcome({ outcome: 'failure', response_code: '93001' }, 'en');
    assert.equal(partner.kind, 'not_completed');
    assert.equal(partner.tryAnotherCard, false);
    const unknown = describeOutcome({ outcome: 'failure', response_code: '99999' }, 'en');
    assert.equal(unknown.kind, 'not_completed');
    assert.equal(unknown.reason, undefined, 'no reason made up for a code this project does not know');
  });

  it('says a payment the customer left on the gateway’s page was cancelled, and that nothing was charged', () => {
    const described = describeOutcome({ outcome: 'failure', response_code: CUSTOMER_CANCEL_CODE, status: '00' }, 'en');
    assert.equal(described.kind, 'cancelled');
    assert.equal(described.title, 'Payment cancelled');
    assert.match(described.next, /nothing was charged/);
  });

  it('says a saved card was saved and nothing was charged, in both languages', () => {
    assert.equal(describeOutcome({ outcome: 'success', response_code: '18000', savedCard: true }, 'en').title, 'Card saved — nothing was charged');
    assert.equal(describeOutcome({ outcome: 'success', response_code: '18000', savedCard: true }, 'ar').title, 'تم حفظ البطاقة — لم يتم خصم أي مبلغ');
    const refused = describeOutcome({ outcome: 'failure', response_code: '17003', savedCard: true }, 'en');
    assert.equal(refused.kind, 'card_not_saved');
    assert.equal(refused.reason, 'Invalid card number');
  });

  it('gives a success and a pending payment their tone and no reason', () => {
    assert.deepEqual(
      [describeOutcome({ outcome: 'success', response_code: '14000' }, 'en'), describeOutcome({ outcome: 'pending', response_code: '20000' }, 'en')].map(
        (described) => [described.tone, described.title, described.reason],
      ),
      [
        ['success', 'Payment successful', undefined],
        ['pending', 'Payment pending', undefined],
      ],
    );
  });
});
