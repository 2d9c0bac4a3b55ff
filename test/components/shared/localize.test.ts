import { expect } from '@open-wc/testing';
import { checkoutMessages } from '../../../src/components/pg-checkout/messages.ts';
import { billVoucherMessages } from '../../../src/components/pg-bill-voucher/messages.ts';
import { financingOtpMessages } from '../../../src/components/pg-financing-otp/messages.ts';
import { installmentsMessages } from '../../../src/components/pg-installments/messages.ts';
import { loadCatalog, loadedCatalog, ltr, ltrText, type Catalogs } from '../../../src/components/shared/localize.ts';
import { describeRequestError, sharedMessages } from '../../../src/components/shared/messages.ts';

/** Every key path of a catalog (functions are leaves). */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix ? `${prefix}.${key}` : key));
}

describe('message catalogs', () => {
  for (const [name, catalogs] of Object.entries({ sharedMessages, checkoutMessages, installmentsMessages, billVoucherMessages, financingOtpMessages })) {
    it(`${name}: Arabic has every English key and nothing else`, async () => {
      expect(keyPaths(await catalogs.ar()).sort()).to.deep.equal(keyPaths(catalogs.en).sort());
    });

    it(`${name}: no Arabic text is left in English`, async () => {
      const strings = Object.entries(await catalogs.ar()).filter(([, value]) => typeof value === 'string');
      for (const [key, value] of strings) {
        if (key === 'expiryHint') continue; // "MM/YY" is the format, the same in both
        expect(value, key).not.to.equal((catalogs.en as unknown as Record<string, unknown>)[key]);
      }
    });
  }

  it('maps every failure kind and endpoint code to a message', () => {
    const en = sharedMessages.en;
    expect(describeRequestError({ kind: 'network' }, en)).to.equal(en.errors.network);
    expect(describeRequestError({ kind: 'refused', code: 'gateway_unreachable' }, en)).to.equal(en.errors.gatewayUnreachable);
    expect(describeRequestError({ kind: 'refused', code: 'amount_mismatch' }, en)).to.equal(en.errors.orderChanged);
    expect(describeRequestError({ kind: 'refused', code: 'something_new' }, en)).to.equal(en.errors.refused);
    expect(describeRequestError({ kind: 'invalid_response' }, en)).to.equal(en.errors.invalidResponse);
    expect(describeRequestError({ kind: 'refused', code: 'unknown_order' }, en)).to.equal(en.errors.unknownOrder);
    expect(describeRequestError({ kind: 'refused', code: 'store_unavailable' }, en)).to.equal(en.errors.unavailable);
  });

  it('answers a code that names no message of its own (an inherited property, another message\'s key) with the generic one', () => {
    const en = sharedMessages.en;
    for (const code of ['constructor', '__proto__', 'to_string', 'has_own_property', 'otp_resend', 'refused', '']) {
      expect(describeRequestError({ kind: 'refused', code }, en), code).to.equal(en.errors.refused);
    }
    expect(describeRequestError({ kind: 'otpResendLimited' }, en)).to.equal(en.errors.refused);
  });

  it('gives each endpoint refusal its own message instead of the generic "refused", in both languages', async () => {
    const codes = [
      'order_already_paid',
      'order_in_progress',
      'card_attempts_limited',
      'service_not_configured',
      'unsupported_media_type',
      'json_too_deep',
      'invalid_json',
      'body_too_large',
      'gateway_answer_invalid',
      'gateway_signature_invalid',
      'currency_not_supported',
      'card_data_refused',
      'command_refused',
      'origin_refused',
      'not_found',
      'method_not_allowed',
      'flow_invalid',
      'step_out_of_order',
      'internal_error',
    ];
    const ar = await sharedMessages.ar();
    for (const messages of [sharedMessages.en, ar]) {
      for (const code of codes) {
        expect(describeRequestError({ kind: 'refused', code }, messages), code).not.to.equal(messages.errors.refused);
      }
    }
    const en = sharedMessages.en;
    expect(describeRequestError({ kind: 'refused', code: 'order_already_paid' }, en)).to.equal('This order has already been paid. There is nothing more to pay.');
  });

  it('says when a new code may be asked for in the element that asks for codes, from the Retry-After in minutes', async () => {
    const en = financingOtpMessages.en;
    const ar = await financingOtpMessages.ar();
    expect(describeRequestError({ kind: 'refused', code: 'otp_resend_limited', retryAfterSeconds: 890 }, en)).to.equal(
      'Too many codes have been sent. You can ask for a new one in 15 minutes.',
    );
    expect(describeRequestError({ kind: 'refused', code: 'otp_resend_limited' }, en)).to.equal(
      'Too many codes have been sent. Please wait before asking for another.',
    );
    expect(describeRequestError({ kind: 'refused', code: 'otp_resend_limited', retryAfterSeconds: 60 }, ar)).to.equal(
      'تم إرسال عدد كبير من الرموز. يمكنك طلب رمز جديد بعد دقيقة واحدة.',
    );
    expect(describeRequestError({ kind: 'refused', code: 'otp_attempts_limited' }, en)).to.equal(en.errors.otpAttemptsLimited);
  });

  it('makes left-to-right islands for rich and plain text', () => {
    expect(ltr('EGP 1.00').strings.join('')).to.contain('dir="ltr"');
    expect(ltrText('EGP 1.00')).to.equal('\u2066EGP 1.00\u2069');
  });

  describe('loading a catalog', () => {
    /** Catalogs whose Arabic load fails `failures` times first; counts the loads. */
    function countedCatalogs(failures = 0) {
      const counted = { loads: 0 };
      const catalogs: Catalogs<{ readonly word: string }> = {
        en: { word: 'word' },
        ar: async () => {
          counted.loads += 1;
          if (counted.loads <= failures) throw new TypeError('Failed to fetch dynamically imported module');
          return { word: 'كلمة' };
        },
      };
      return { catalogs, counted };
    }

    it('has English at hand and never loads Arabic for it', async () => {
      const { catalogs, counted } = countedCatalogs();
      expect(loadedCatalog(catalogs, 'en')).to.equal(catalogs.en);
      expect(await loadCatalog(catalogs, 'en')).to.equal(catalogs.en);
      expect(counted.loads).to.equal(0);
    });

    it('loads Arabic once, however many ask at the same time, and keeps it at hand', async () => {
      const { catalogs, counted } = countedCatalogs();
      expect(loadedCatalog(catalogs, 'ar')).to.equal(undefined);
      const [first, second] = await Promise.all([loadCatalog(catalogs, 'ar'), loadCatalog(catalogs, 'ar')]);
      expect(first.word).to.equal('كلمة');
      expect(second).to.equal(first);
      expect(loadedCatalog(catalogs, 'ar')).to.equal(first);
      expect(await loadCatalog(catalogs, 'ar')).to.equal(first);
      expect(counted.loads).to.equal(1);
    });

    it('tries a failed load again on the next call', async () => {
      const { catalogs, counted } = countedCatalogs(1);
      let failure: unknown;
      await loadCatalog(catalogs, 'ar').catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(TypeError);
      expect(loadedCatalog(catalogs, 'ar')).to.equal(undefined);
      expect((await loadCatalog(catalogs, 'ar')).word).to.equal('كلمة');
      expect(counted.loads).to.equal(2);
    });
  });
});
