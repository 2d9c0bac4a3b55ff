import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import {
  canonicalString,
  compareByteOrder,
  constantTimeEqualHex,
  explainSigningString,
  hashBackend,
  parseShaType,
  sign,
  signatureOptionsFor,
  signParams,
  signingString,
  SignatureConfigError,
  verifySignature,
  webCryptoHash,
  wireParams,
} from '../../src/core/signature.ts';

/** A second, independent hash: coreutils over the exact bytes, not Web Crypto. */
function coreutilsDigest(tool: 'sha256sum' | 'sha512sum', text: string): string {
  return execFileSync(tool, { input: Buffer.from(text, 'utf8') }).toString().split(' ')[0] ?? '';
}

const hostedPageRequest = {
  command: 'PURCHASE',
  access_code: 'zx0IPmPy5jp1vAz8Kpg7',
  merchant_identifier: 'CycHZxVj',
  merchant_reference: 'XYZ9239-yu898',
  amount: '10000',
  currency: 'AED',
  language: 'en',
  customer_email: 'test@payfort.com',
  order_description: 'iPhone 6-S',
};

describe('canonicalString', () => {
  it('sorts parameters by name and concatenates name=value with no separator', () => {
    assert.equal(
      canonicalString(hostedPageRequest),
      'access_code=zx0IPmPy5jp1vAz8Kpg7amount=10000command=PURCHASEcurrency=AED' +
        'customer_email=test@payfort.comlanguage=enmerchant_identifier=CycHZxVj' +
        'merchant_reference=XYZ9239-yu898order_description=iPhone 6-S',
    );
  });

  it('leaves the signature parameter itself out', () => {
    assert.equal(canonicalString({ b: '2', signature: 'abc', a: '1' }), 'a=1b=2');
  });

  it('writes a list of products as [{k=v, k=v}] with keys in the order they are sent', () => {
    const products = [
      { product_name: 'Phone', product_price: '1500.00', product_category: 'Mobiles' },
      { product_name: 'Case', product_price: '20.00', product_category: 'Accessories' },
    ];
    assert.equal(
      canonicalString({ products, amount: '152000' }),
      'amount=152000products=[{product_name=Phone, product_price=1500.00, product_category=Mobiles}, ' +
        '{product_name=Case, product_price=20.00, product_category=Accessories}]',
    );
  });

  it('writes report columns as [a, b] and filters as [{key=k, value=v}]', () => {
    const text = canonicalString({
      columns: ['svc_id', 'amount', 'currency'],
      filters: [
        { key: 'currency', value: 'EGP' },
        { key: 'payment_option', value: 'VISA' },
      ],
    });
    assert.equal(
      text,
      'columns=[svc_id, amount, currency]filters=[{key=currency, value=EGP}, {key=payment_option, value=VISA}]',
    );
  });

  it('signs an empty string as name= and leaves null and undefined out', () => {
    assert.equal(canonicalString({ a: '', b: null, c: undefined, d: 'x' }), 'a=d=x');
  });

  it('leaves the merchant page card fields out in merchant page mode, and only then', () => {
    const request = {
      service_command: 'TOKENIZATION',
      card_number: '4005550000000001',
      card_security_code: '123',
      expiry_date: '2905',
      card_holder_name: 'Ada',
      remember_me: 'YES',
      language: 'en',
    };
    assert.equal(canonicalString(request, { merchantPage: true }), 'language=enservice_command=TOKENIZATION');
    assert.match(canonicalString(request), /card_number=4005550000000001/);
  });

  it('leaves the plans answer’s installment_detail out, by operation, and nothing of other answers', () => {
    const plans = { query_command: 'GET_INSTALLMENTS_PLANS', response_code: '62000', installment_detail: { issuer_detail: [] } };
    assert.deepEqual(signatureOptionsFor(plans), { unsigned: ['installment_detail'] });
    assert.equal(canonicalString(plans, signatureOptionsFor(plans)), 'query_command=GET_INSTALLMENTS_PLANSresponse_code=62000');
    assert.deepEqual(signatureOptionsFor({ command: 'PURCHASE', installment_detail: 'x' }), {});
    assert.deepEqual(signatureOptionsFor({}), {});
  });

  it('orders names by UTF-8 bytes, not by UTF-16 code units', () => {
    // U+FF21 (3 UTF-8 bytes) sorts before U+1F600 (4 bytes), though its UTF-16 unit is larger.
    assert.ok(compareByteOrder('\uff21', '\u{1f600}') < 0);
    assert.ok('\uff21' > '\u{1f600}');
    assert.ok(compareByteOrder('amount', 'amount_x') < 0);
    assert.ok(compareByteOrder('B', 'a') < 0);
  });
});

describe('sign', () => {
  it('matches sha256sum over phrase + canonical string + phrase', async () => {
    const phrase = 'TESTSHAIN';
    const expected = coreutilsDigest('sha256sum', signingString(hostedPageRequest, phrase));
    assert.equal(await sign(hostedPageRequest, phrase, 'sha256'), expected);
  });

  it('matches sha512sum for SHA-512 and an Arabic description (UTF-8 input)', async () => {
    const request = { ...hostedPageRequest, order_description: 'هاتف محمول', language: 'ar' };
    const phrase = 'عبارة$سرية';
    const expected = coreutilsDigest('sha512sum', `${phrase}${canonicalString(request)}${phrase}`);
    const signature = await sign(request, phrase, 'sha512');
    assert.equal(signature, expected);
    assert.equal(signature.length, 128);
  });

  it('produces lowercase hex', async () => {
    assert.match(await sign(hostedPageRequest, 'p', 'sha256'), /^[0-9a-f]{64}$/);
  });

  it('refuses an empty phrase', async () => {
    await assert.rejects(sign(hostedPageRequest, '', 'sha256'), SignatureConfigError);
  });
});

describe('verifySignature', () => {
  it('accepts a signature in upper case', async () => {
    const signature = (await sign(hostedPageRequest, 'resp', 'sha256')).toUpperCase();
    assert.deepEqual(await verifySignature({ ...hostedPageRequest, signature }, 'resp', 'sha256'), { valid: true });
  });

  it('reports a changed amount as a mismatch', async () => {
    const signature = await sign(hostedPageRequest, 'resp', 'sha256');
    const result = await verifySignature({ ...hostedPageRequest, amount: '1', signature }, 'resp', 'sha256');
    assert.deepEqual(result, { valid: false, reason: 'mismatch' });
  });

  it('reports a message without a signature as missing', async () => {
    assert.deepEqual(await verifySignature(hostedPageRequest, 'resp', 'sha256'), { valid: false, reason: 'missing' });
  });

  it('does not accept a signature made with the other phrase', async () => {
    const signature = await sign(hostedPageRequest, 'request-phrase', 'sha256');
    const result = await verifySignature({ ...hostedPageRequest, signature }, 'response-phrase', 'sha256');
    assert.equal(result.valid, false);
  });
});

describe('constantTimeEqualHex', () => {
  it('is case-insensitive and length-sensitive', () => {
    assert.equal(constantTimeEqualHex('abcdef', 'ABCDEF'), true);
    assert.equal(constantTimeEqualHex('abcdef', 'abcde'), false);
    assert.equal(constantTimeEqualHex('abcdef', 'abcdee'), false);
  });
});

describe('parseShaType', () => {
  it('reads the back-office spellings', () => {
    assert.equal(parseShaType('SHA-256'), 'sha256');
    assert.equal(parseShaType('sha512'), 'sha512');
  });

  it('refuses the weak 128-bit variant with an explanation', () => {
    assert.throws(() => parseShaType('SHA-128'), /weak 128-bit variant.*SHA-256 or SHA-512/);
  });

  it('refuses an unknown type', () => {
    assert.throws(() => parseShaType('SHA-3'), SignatureConfigError);
  });
});

describe('signParams and wireParams', () => {
  it('sends every value it signed, and nothing absent', async () => {
    const sent = await signParams({ a: '1', b: '', c: undefined, d: null }, 'p', 'sha256');
    assert.deepEqual(Object.keys(sent).sort(), ['a', 'b', 'signature']);
    assert.deepEqual(await verifySignature(sent, 'p', 'sha256'), { valid: true });
  });

  it('replaces a stale signature rather than signing it', async () => {
    const sent = await signParams({ a: '1', signature: 'stale' }, 'p', 'sha256');
    assert.equal(sent.signature, await sign({ a: '1' }, 'p', 'sha256'));
  });

  it('wireParams keeps empty strings', () => {
    assert.deepEqual(wireParams({ a: '', b: undefined }), { a: '' });
  });
});

describe('explainSigningString', () => {
  it('shows the hashed text with the phrase masked', () => {
    assert.equal(explainSigningString({ b: '2', a: '1' }), '<phrase>a=1b=2<phrase>');
  });
});

describe('canonical string properties', () => {
  const name = fc.stringMatching(/^[a-z_]{1,12}$/).filter((n) => n !== 'signature');
  const value = fc.string({ maxLength: 20 });

  it('orders any two names as their UTF-8 bytes compare', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        return Math.sign(compareByteOrder(a, b)) === bytes;
      }),
      { numRuns: 2000 },
    );
  });

  it('does not depend on the order parameters are given in', () => {
    fc.assert(
      fc.property(fc.dictionary(name, value), (params) => {
        const reversed = Object.fromEntries(Object.entries(params).reverse());
        return canonicalString(params) === canonicalString(reversed);
      }),
    );
  });

  it('contains each name=value exactly as given, in sorted order', () => {
    fc.assert(
      fc.property(fc.dictionary(name, value, { minKeys: 1 }), (params) => {
        const expected = Object.keys(params)
          .sort()
          .map((key) => `${key}=${params[key]}`)
          .join('');
        return canonicalString(params) === expected;
      }),
    );
  });

  it('writes any parameters as the definition reads (byte order of names, lists, objects, absent values)', () => {
    // The spec's rule written plainly, to hold the optimized canonicalString to it.
    const written = (value: unknown): string => {
      if (value === null || value === undefined) return '';
      if (Array.isArray(value)) return `[${value.map(written).join(', ')}]`;
      if (typeof value === 'object') {
        const entries = Object.entries(value).filter(([, v]) => v !== null && v !== undefined);
        return `{${entries.map(([k, v]) => `${k}=${written(v)}`).join(', ')}}`;
      }
      return String(value);
    };
    const definition = (params: Record<string, unknown>, unsigned: readonly string[]) =>
      Object.entries(params)
        .filter(([key, v]) => key !== 'signature' && v !== null && v !== undefined && !unsigned.includes(key))
        .sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
        .map(([key, v]) => `${key}=${written(v)}`)
        .join('');
    const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const nested = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.array(fc.dictionary(fc.string({ maxLength: 4 }), scalar), { maxLength: 2 }));
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(name, fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constant('signature')), nested),
        fc.subarray(['card_number', 'remember_me', 'a', 'installment_detail']),
        (params, unsigned) => canonicalString(params, { unsigned }) === definition(params, unsigned),
      ),
      { numRuns: 1000 },
    );
  });

  it('verifies what it signed, and not after any one value changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(name, value, { minKeys: 1 }), fc.string({ minLength: 1 }), async (params, phrase) => {
        const signed = await signParams(params, phrase, 'sha256');
        const key = Object.keys(params)[0] as string;
        const tampered = { ...signed, [key]: `${params[key]}x` };
        return (
          (await verifySignature(signed, phrase, 'sha256')).valid &&
          !(await verifySignature(tampered, phrase, 'sha256')).valid
        );
      }),
      { numRuns: 50 },
    );
  });
});

describe('the hash behind sign()', () => {
  it('is the runtime\'s synchronous node:crypto in Node', () => {
    const backend = hashBackend();
    assert.equal(backend.name, 'node:crypto');
    assert.equal(typeof backend.hexDigest('sha256', 'x'), 'string', 'answers without a promise');
  });

  it('gives the same digest as Web Crypto for any text, in both SHA types', async () => {
    const backend = hashBackend();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom('sha256', 'sha512' as const), async (text, sha) => {
        assert.equal(await backend.hexDigest(sha, text), await webCryptoHash.hexDigest(sha, text));
      }),
    );
  });

  it('matches coreutils through the Web Crypto path too, for the documented request', async () => {
    const text = signingString(hostedPageRequest, 'TESTSHAIN');
    assert.equal(await webCryptoHash.hexDigest('sha256', text), coreutilsDigest('sha256sum', text));
  });
});
