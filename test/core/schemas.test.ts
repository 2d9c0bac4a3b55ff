import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type * as z from 'zod/mini';
import * as schemas from '../../src/core/schemas/index.ts';
import {
  FIELD_RULES,
  charsetPattern,
  fieldFromRule,
  type Charset,
  type FieldName,
  type FieldRule,
} from '../../src/core/schemas/index.ts';
import { FIELD_MESSAGES, validate, type FieldError, type MessageCatalog, type Rule } from '../../src/core/field-errors.ts';

const identity = {
  access_code: 'zx0IPmPy5jp1vAz8Kpg7',
  merchant_identifier: 'CycHZxVj',
  signature: '7cad05f0212ed933c9a5d5dffa31661acf2c827a6f0e3a5b4b8e2f6c1d9a0b3c',
};
const order = {
  ...identity,
  merchant_reference: 'ORDER-1001_a.1',
  amount: '10000',
  currency: 'EGP',
  language: 'en',
};
const outcome = (code: string, status: string) => ({ response_code: code, response_message: 'Success', status });
const card = { card_number: '4005550000000001', expiry_date: '2705', card_security_code: '123' };
const financing = {
  ...identity,
  merchant_reference: 'FIN-7',
  language: 'ar',
  payment_option: 'VALU',
  phone_number: '01012345678',
};
const plansResponse = {
  query_command: 'GET_INSTALLMENTS_PLANS',
  ...identity,
  ...outcome('62000', '62'),
  installment_detail: {
    issuer_detail: [
      {
        issuer_code: 'ISS01',
        issuer_name_ar: 'بنك المثال',
        issuer_name_en: 'Example Bank',
        terms_and_condition_ar: null,
        terms_and_condition_en: 'https://bank.example/terms',
        country_code: 'ARE',
        issuer_logo_ar: null,
        issuer_logo_en: 'https://bank.example/logo.png',
        banking_system: 'Non Islamic',
        formula: null,
        plan_details: [
          {
            plan_code: 'PL6',
            currency_code: 'AED',
            number_of_installment: 6,
            fees_type: 'Percentage',
            fees_amount: 150,
            processing_fees_type: null,
            processing_fees_amount: null,
            rate_type: 'Flat',
            plan_merchant_type: 'Non Partner',
            plan_type: 'Cross-Border',
            fee_display_value: 150,
            minimum_amount: 100000,
            maximum_amount: 5000000,
            amountPerMonth: '171.67',
          },
        ],
        bins: [{ bin: '400555', country_code: 'ARE', currency_code: 'AED', card_brand_code: 'VISA' }],
        confirmation_message_ar: null,
        confirmation_message_en: null,
        disclaimer_message_ar: null,
        disclaimer_message_en: null,
        processing_fees_message_ar: null,
        processing_fees_message_en: null,
      },
    ],
  },
};
const otpVerifyResponse = {
  service_command: 'OTP_VERIFY',
  ...financing,
  merchant_order_id: 'MO-1',
  amount: '500000',
  currency: 'EGP',
  total_downpayment: 0,
  otp: '123456',
  ...outcome('92182', '92'),
  otp_status: '1',
  tenure: { TENURE_VM: [{ EMI: '1750.00', TENURE: '3', InterestRate: '2.5' }] },
};

/** A valid example of every shape, keyed by schema name. */
const validExamples: Record<string, unknown> = {
  hostedPaymentRequest: {
    command: 'PURCHASE',
    ...order,
    customer_email: 'test@example.com',
    order_description: 'iPhone 15',
    installments: 'STANDALONE',
  },
  tokenizationMerchantFields: {
    service_command: 'TOKENIZATION',
    ...identity,
    merchant_reference: 'TOK-1',
    language: 'ar',
    return_url: 'https://shop.example/return',
  },
  tokenizationRequest: {
    service_command: 'TOKENIZATION',
    ...identity,
    merchant_reference: 'TOK-1',
    language: 'ar',
    ...card,
    card_holder_name: 'Test Holder',
    remember_me: 'YES',
  },
  installmentsMerchantPageMerchantFields: {
    service_command: 'TOKENIZATION',
    ...identity,
    merchant_reference: 'INST-1',
    language: 'en',
    installments: 'STANDALONE',
    amount: 150000,
    currency: 'SAR',
    customer_country_code: 'SAU',
  },
  installmentsMerchantPageRequest: {
    service_command: 'TOKENIZATION',
    ...identity,
    merchant_reference: 'INST-1',
    language: 'en',
    installments: 'STANDALONE',
    amount: 150000,
    currency: 'SAR',
    ...card,
  },
  hostedPageResponse: {
    command: 'PURCHASE',
    ...order,
    ...outcome('14000', '14'),
    svc_id: '169996200003536512',
    eci: 'ECOMMERCE',
    payment_option: 'VISA',
    card_number: '400555******0001',
    expiry_date: '2705',
    token_name: 'tok_9f2.a@b-c',
    authorization_code: '123456',
    installments: 'STANDALONE',
    number_of_installments: '6',
    plan_code: 'PL6',
    issuer_code: 'ISS01',
  },
  captureRequest: {
    command: 'CAPTURE',
    ...order,
    amount: 5000,
    svc_id: '169996200003536512',
    order_description: 'partial capture',
  },
  captureResponse: { command: 'CAPTURE', ...order, svc_id: '169996200003536512', ...outcome('20064', '04') },
  refundRequest: { command: 'REFUND', ...order, svc_id: '169996200003536512' },
  refundResponse: { command: 'REFUND', ...order, svc_id: '169996200003536512', ...outcome('20064', '04') },
  voidAuthorizationRequest: { command: 'VOID_AUTHORIZATION', ...identity, merchant_reference: 'ORDER-1001', language: 'en' },
  voidAuthorizationResponse: {
    command: 'VOID_AUTHORIZATION',
    ...identity,
    svc_id: '169996200003536512',
    language: 'en',
    ...outcome('08000', '08'),
  },
  installmentsPlansRequest: {
    query_command: 'GET_INSTALLMENTS_PLANS',
    ...identity,
    language: 'en',
    amount: '100000',
    currency: 'AED',
  },
  installmentsPlansResponse: plansResponse,
  trustedChannelRequest: { command: 'PURCHASE', ...order, eci: 'MOTO', ...card, customer_email: 'a@b.co' },
  trustedChannelResponse: {
    command: 'PURCHASE',
    ...order,
    eci: 'MOTO',
    card_number: '400555******0001',
    expiry_date: '2705',
    ...outcome('14000', '14'),
    authorization_code: '123456',
    settlement_reference: 'SR-1',
  },
  installmentsDirectRequest: {
    command: 'PURCHASE',
    ...order,
    token_name: 'tok_1',
    installments: 'YES',
    plan_code: 'PL6',
    issuer_code: 'ISS01',
  },
  installmentsDirectResponse: {
    command: 'PURCHASE',
    ...order,
    token_name: 'tok_1',
    installments: 'YES',
    plan_code: 'PL6',
    issuer_code: 'ISS01',
    number_of_installments: 6,
    ...outcome('14000', '14'),
  },
  recurringPurchaseRequest: { command: 'PURCHASE', ...order, eci: 'RECURRING', token_name: 'tok_1', customer_email: 'a@b.co' },
  recurringPurchaseResponse: {
    command: 'PURCHASE',
    ...order,
    eci: 'RECURRING',
    token_name: 'tok_1',
    ...outcome('14000', '14'),
    svc_id: '169996200003536512',
    authorization_code: '123456',
    expiry_date: '2705',
    card_number: '400555******0001',
    settlement_reference: 'SR-1',
    payment_option: 'MASTERCARD',
  },
  billPresentmentRequest: {
    service_command: 'BILL_PRESENTMENT',
    ...order,
    request_expiry_date: '2025-12-31T23:59:59+02:00',
    payment_partner: 'PP1',
    customer_name: 'محمد عبد الله',
  },
  billPresentmentResponse: {
    service_command: 'BILL_PRESENTMENT',
    ...order,
    request_expiry_date: '2025-12-31T23:59:59+02:00',
    payment_partner: 'PP1',
    bill_number: '12345678901234',
    ...outcome('30000', '30'),
  },
  customerVerifyRequest: { service_command: 'CUSTOMER_VERIFY', ...financing },
  customerVerifyResponse: { service_command: 'CUSTOMER_VERIFY', ...financing, ...outcome('90000', '90') },
  otpGenerateRequest: {
    service_command: 'OTP_GENERATE',
    ...financing,
    merchant_order_id: 'MO-1',
    amount: '500000',
    currency: 'EGP',
    products: [{ product_name: 'TV', product_price: '5000', product_category: 'Electronics' }],
  },
  otpGenerateResponse: {
    service_command: 'OTP_GENERATE',
    ...financing,
    merchant_order_id: 'MO-1',
    amount: '500000',
    currency: 'EGP',
    products: [{ product_name: 'TV', product_price: '5000', product_category: 'Electronics' }],
    ...outcome('88000', '88'),
    transaction_id: '884422',
    total_down_payment: '0',
    otp_status: '1',
    tenure: '3-6-9-12',
  },
  otpVerifyRequest: {
    service_command: 'OTP_VERIFY',
    ...financing,
    merchant_order_id: 'MO-1',
    amount: '500000',
    currency: 'EGP',
    total_downpayment: 0,
    otp: '123456',
  },
  otpVerifyResponse,
  financingPurchaseRequest: {
    command: 'PURCHASE',
    ...financing,
    amount: '500000',
    currency: 'EGP',
    customer_email: 'a@b.co',
    customer_code: 'C-1',
    merchant_order_id: 'MO-1',
    transaction_id: '884422',
    otp: '123456',
    tenure: '6',
    total_down_payment: 0,
    purchase_description: 'Television',
  },
  financingPurchaseResponse: {
    command: 'PURCHASE',
    ...financing,
    amount: '500000',
    currency: 'EGP',
    customer_code: 'C-1',
    merchant_order_id: 'MO-1',
    transaction_id: '884422',
    otp: '123456',
    tenure: 6,
    total_down_payment: 0,
    purchase_description: 'Television',
    customer_ip: '192.0.2.1',
    eci: 'ECOMMERCE',
    svc_id: '169996200003536512',
    ...outcome('14000', '14'),
  },
  checkStatusRequest: {
    query_command: 'CHECK_STATUS',
    ...identity,
    merchant_reference: 'ORDER-1001',
    language: 'en',
    return_third_party_response_codes: 'NO',
  },
  checkStatusResponse: {
    query_command: 'CHECK_STATUS',
    ...identity,
    merchant_reference: 'ORDER-1001',
    language: 'en',
    svc_id: '169996200003536512',
    ...outcome('12000', '12'),
    transaction_status: '04',
    transaction_code: '20064',
    transaction_message: 'Request accepted',
    authorized_amount: '10000',
    captured_amount: 10000,
    refunded_amount: '0',
    processor_response_code: '00',
    acquirer_response_code: '00',
  },
  generateReportRequest: {
    query_command: 'GENERATE_REPORT',
    ...identity,
    merchant_reference: 'REPORT-1',
    from_date: '2025-01-01T00:00:00+02:00',
    to_date: '2025-01-31T23:59:59+02:00',
    response_format: 'JSON',
    language: 'en',
    columns: ['merchant_reference', 'amount', 'currency'],
    filters: [{ key: 'currency', value: 'EGP' }],
  },
  generateReportResponse: {
    query_command: 'GENERATE_REPORT',
    ...identity,
    merchant_reference: 'REPORT-1',
    from_date: '2025-01-01T00:00:00+02:00',
    to_date: '2025-01-31T23:59:59+02:00',
    response_format: 'XML',
    language: 'en',
    ...outcome('56000', '56'),
  },
  downloadReportRequest: {
    query_command: 'DOWNLOAD_REPORT',
    ...identity,
    merchant_reference: 'REPORT-1',
    file_format: 'CSV',
    language: 'en',
  },
  downloadReportResponse: {
    query_command: 'DOWNLOAD_REPORT',
    ...identity,
    merchant_reference: 'REPORT-1',
    file_format: 'JSON',
    language: 'en',
    ...outcome('57002', '57'),
  },
  threeDsEnrollmentRequest: {
    service_command: '3DS_ENROLLMENT',
    ...order,
    card_number: '4005550000000001',
    expiry_date: '2705',
    merchant_3ds_url: 'https://shop.example/3ds',
  },
  threeDsEnrollmentResponse: {
    service_command: '3DS_ENROLLMENT',
    ...order,
    card_number: '400555******0001',
    expiry_date: '2705',
    merchant_3ds_url: 'https://shop.example/3ds',
    threeds_id: 'TDS-1',
    '3ds_url': 'https://acs.example/challenge',
    '3ds_enrolled': 'Y',
    ...outcome('44000', '44'),
  },
  threeDsAuthenticationRequest: {
    service_command: '3DS_AUTHENTICATION',
    ...identity,
    merchant_reference: 'ORDER-1001',
    language: 'en',
    third_party_body: 'MD=abc&PaRes=def',
  },
  threeDsAuthenticationResponse: {
    service_command: '3DS_AUTHENTICATION',
    ...identity,
    merchant_reference: 'ORDER-1001',
    language: 'en',
    ver_token: 'vt',
    '3ds_eci': '05',
    threeds_id: 'TDS-1',
    '3ds_status': 'Y',
    '3ds_xid': 'xid',
    '3ds_enrolled': 'Y',
    ...outcome('44000', '44'),
  },
  getTokensRequest: {
    query_command: 'GET_TOKENS',
    ...identity,
    language: 'en',
    from_date: '2026-01-01T00:00:00+02:00',
    to_date: '2026-03-31T23:59:59+02:00',
    token_status: 'ACTIVE',
    response_format: 'XML',
  },
  getTokensResponse: {
    query_command: 'GET_TOKENS',
    ...identity,
    language: 'en',
    from_date: '2026-01-01T00:00:00+02:00',
    to_date: '2026-03-31T23:59:59+02:00',
    response_format: 'XML',
    data_list: [
      {
        card_number: '411111******1111',
        expiry_date: '2908',
        token_name: 'TK1',
        card_brand: 'VISA',
        card_bin: '411111',
        token_status: 'ACTIVE',
        creation_date: '2026-03-10T09:00:00+00:00',
      },
    ],
    data_count: '1',
    ...outcome('54000', '54'),
  },
  updateTokenRequest: {
    service_command: 'UPDATE_TOKEN',
    ...identity,
    merchant_reference: 'UPD-1',
    language: 'en',
    token_name: 'TK1',
    token_status: 'INACTIVE',
    expiry_date: '3001',
    card_holder_name: 'Test Buyer',
    new_token_name: 'TK2',
  },
  updateTokenResponse: {
    service_command: 'UPDATE_TOKEN',
    ...identity,
    merchant_reference: 'UPD-1',
    language: 'en',
    token_name: 'TK1',
    token_status: 'INACTIVE',
    card_number: '411111******1111',
    creation_date: '2026-03-10T09:00:00+00:00',
    card_brand: 'VISA',
    card_bin: '411111',
    ...outcome('58000', '58'),
  },
  tokenizationApiRequest: { service_command: 'TOKENIZATION', ...identity, merchant_reference: 'TOK-1', language: 'en', ...card },
  tokenizationApiResponse: {
    service_command: 'TOKENIZATION',
    ...identity,
    merchant_reference: 'TOK-1',
    language: 'en',
    card_number: '400555******0001',
    expiry_date: '2705',
    token_name: 'TK1',
    card_bin: '400555',
    payment_option: 'VISA',
    ...outcome('18000', '18'),
  },
  currencyConversionRequest: {
    service_command: 'CURRENCY_CONVERSION',
    ...identity,
    amount: 10000,
    currency: 'USD',
    converted_currency: 'AED',
    language: 'en',
  },
  currencyConversionResponse: {
    service_command: 'CURRENCY_CONVERSION',
    ...identity,
    amount: '10000',
    currency: 'USD',
    converted_currency: 'AED',
    language: 'en',
    converted_amount: '36725',
    conversion_rate: '3.672500',
    ...outcome('42000', '42'),
  },
  batchUploadFields: { service_command: 'UPLOAD_BATCH_FILE', ...identity, batch_reference: 'B-1', language: 'en' },
  batchUploadResponse: {
    service_command: 'UPLOAD_BATCH_FILE',
    ...identity,
    batch_reference: 'B-1',
    language: 'en',
    batch_id: '77',
    ...outcome('50000', '50'),
  },
  batchResultsRequest: { service_command: 'GET_BATCH_RESULTS', ...identity, batch_reference: 'B-1', language: 'en', batch_id: '77' },
  batchResultsResponse: {
    service_command: 'GET_BATCH_RESULTS',
    ...identity,
    batch_reference: 'B-1',
    language: 'en',
    batch_id: '77',
    transactions_count: 10,
    ...outcome('70000', '70'),
  },
  processBatchRequest: { service_command: 'PROCESS_BATCH', ...identity, batch_reference: 'B-1', language: 'en', batch_id: '77' },
  processBatchResponse: {
    service_command: 'PROCESS_BATCH',
    ...identity,
    batch_reference: 'B-1',
    language: 'ar',
    ...outcome('72147', '72'),
  },
};

function isSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && 'safeParse' in value;
}

/** Every exported message schema, by name (list entries aside): what `validExamples` must cover. */
const exportedShapes = Object.entries(schemas as Record<string, unknown>).flatMap(([name, value]) =>
  isSchema(value) && !/Entry$|Detail$|Bin$/.test(name) ? [[name, value] as const] : [],
);

function refusal(schema: z.ZodMiniType, input: unknown, language: 'en' | 'ar'): FieldError[] {
  const result = validate(schema, input, language);
  assert.equal(result.ok, false, 'expected the input to be refused');
  return result.ok ? [] : result.errors;
}

function errorOn(errors: readonly FieldError[], field: string): FieldError {
  const found = errors.find((error) => error.field === field);
  assert.ok(found, `expected an error on ${field}, got ${JSON.stringify(errors)}`);
  return found;
}

const capture = validExamples['captureRequest'] as Record<string, unknown>;

describe('when a message of each shape in the spec is well formed', () => {
  it('has an exported schema for every example', () => {
    const names = new Set(exportedShapes.map(([name]) => name));
    assert.deepEqual(Object.keys(validExamples).filter((name) => !names.has(name)), []);
  });

  for (const [name, schema] of exportedShapes) {
    it(`${name} accepts it`, () => {
      assert.ok(name in validExamples, `no example for ${name}`);
      const result = validate(schema, validExamples[name], 'en');
      assert.deepEqual(result.ok ? [] : result.errors, []);
    });
  }
});

describe('when a request carries what the official SDKs send', () => {
  const trusted = validExamples['trustedChannelRequest'] as Record<string, unknown>;

  it('accepts CAPTURE and REFUND by merchant_reference alone, as the SDKs send them', () => {
    const { svc_id: _svcId, ...byReference } = capture;
    assert.ok(schemas.captureRequest.safeParse(byReference).success);
    assert.ok(schemas.refundRequest.safeParse({ ...byReference, command: 'REFUND', maintenance_reference: 'R-1' }).success);
  });

  it('accepts installments HOSTED (merchant page 2.0) with plan_code and issuer_code', () => {
    const direct = validExamples['installmentsDirectRequest'] as Record<string, unknown>;
    assert.ok(schemas.installmentsDirectRequest.safeParse({ ...direct, installments: 'HOSTED' }).success);
  });

  it('accepts the PHP SDK’s billing, shipping and recurring fields and the app_* fields on a charge and a hosted page', () => {
    const extras = {
      billing_street: 'Tahrir St. 1',
      billing_country: 'EGY',
      shipping_sameAsBilling: 'YES',
      agreement_id: 'AGR-1',
      recurring_mode: 'UNSCHEDULED',
      recurring_transactions_count: '12',
      app_programming: '.NET',
      app_plugin_version: 'v2.0.0',
    };
    assert.deepEqual(validate(schemas.trustedChannelRequest, { ...trusted, ...extras }, 'en'), {
      ok: true,
      data: { ...trusted, ...extras },
    });
    const hosted = validExamples['hostedPaymentRequest'] as Record<string, unknown>;
    assert.ok(schemas.hostedPaymentRequest.safeParse({ ...hosted, ...extras, sadad_olp: 'x', check_3ds: 'NO' }).success);
  });

  it('accepts the .NET SDK’s fraud-screening fields on a paymentApi charge, with their rules', () => {
    const fraud = { customer_first_name: 'Mona', ship_email: 'mona@example.com', fraud_extra25: 'x', device_fingerprint: 'fp' };
    assert.ok(schemas.trustedChannelRequest.safeParse({ ...trusted, ...fraud }).success);
    const errors = refusal(schemas.trustedChannelRequest, { ...trusted, ship_email: 'not an email' }, 'en');
    assert.equal(errorOn(errors, 'ship_email').rule, 'format');
  });

  it('accepts a RECURRING charge of clear card data on the trusted channel, and an External MPI result', () => {
    const mpi = { '3ds_enrolled': 'Y', '3ds_status': 'Y', '3ds_eci': '05', '3ds_xid': 'eGlk', ver_token: 'dnQ=' };
    assert.ok(schemas.trustedChannelRequest.safeParse({ ...trusted, eci: 'RECURRING', ...mpi }).success);
  });

  it('accepts customer_ip on the financing PURCHASE and response_format on any paymentApi request', () => {
    const financingPurchase = validExamples['financingPurchaseRequest'] as Record<string, unknown>;
    assert.ok(schemas.financingPurchaseRequest.safeParse({ ...financingPurchase, customer_ip: '192.0.2.10' }).success);
    assert.ok(schemas.checkStatusRequest.safeParse({ ...identity, query_command: 'CHECK_STATUS', merchant_reference: 'o', language: 'en', response_format: 'XML' }).success);
    assert.ok(!schemas.checkStatusRequest.safeParse({ ...identity, query_command: 'CHECK_STATUS', merchant_reference: 'o', language: 'en', response_format: 'CSV' }).success);
  });

  it('still refuses a name neither the spec nor the SDKs send', () => {
    assert.equal(errorOn(refusal(schemas.trustedChannelRequest, { ...trusted, billing_planet: 'Mars' }, 'en'), 'billing_planet').rule, 'unknown_field');
    assert.equal(errorOn(refusal(schemas.captureRequest, { ...capture, app_programming: 'PHP' }, 'en'), 'app_programming').rule, 'unknown_field');
  });
});

describe('when a request carries a field the spec does not list', () => {
  it('is refused as an unknown field, so a misspelt name is never signed and sent', () => {
    const errors = refusal(schemas.captureRequest, { ...capture, merchant_refrence: 'x' }, 'en');
    assert.deepEqual(errors, [
      { field: 'merchant_refrence', rule: 'unknown_field', message: 'merchant_refrence: is not a field of this request' },
    ]);
  });
});

describe('when a response carries fields the schema does not list', () => {
  it('keeps them as they came, because the response signature covers them', () => {
    const parsed = schemas.captureResponse.parse({ ...(validExamples['captureResponse'] as object), merchant_extra9: 'kept' });
    assert.equal((parsed as Record<string, unknown>)['merchant_extra9'], 'kept');
  });
});

/** One broken rule per case, with the expected English and Arabic messages. */
const ruleCases: ReadonlyArray<{
  rule: Rule;
  schema: z.ZodMiniType;
  input: Record<string, unknown>;
  field: string;
  en: string;
  ar: string;
}> = [
  {
    rule: 'required',
    schema: schemas.captureRequest,
    input: { ...capture, merchant_reference: undefined },
    field: 'merchant_reference',
    en: 'merchant_reference: is required',
    ar: 'merchant_reference: هذا الحقل مطلوب',
  },
  {
    rule: 'required_without',
    schema: schemas.checkStatusRequest,
    input: { query_command: 'CHECK_STATUS', ...identity, language: 'en' },
    field: 'merchant_reference',
    en: 'merchant_reference: is required when svc_id is not sent',
    ar: 'merchant_reference: مطلوب عند عدم إرسال svc_id',
  },
  {
    rule: 'empty',
    schema: schemas.captureRequest,
    input: { ...capture, order_description: '' },
    field: 'order_description',
    en: 'order_description: must not be empty',
    ar: 'order_description: يجب ألا يكون فارغًا',
  },
  {
    rule: 'max_length',
    schema: schemas.captureRequest,
    input: { ...capture, merchant_reference: 'r'.repeat(41) },
    field: 'merchant_reference',
    en: 'merchant_reference: must be at most 40 characters',
    ar: 'merchant_reference: يجب ألا يزيد عن ٤٠ حرفًا',
  },
  {
    rule: 'length',
    schema: schemas.captureRequest,
    input: { ...capture, currency: 'EGPT' },
    field: 'currency',
    en: 'currency: must be exactly 3 characters',
    ar: 'currency: يجب أن يتكون من ٣ أحرف بالضبط',
  },
  {
    rule: 'charset',
    schema: schemas.captureRequest,
    input: { ...capture, merchant_reference: 'order#1' },
    field: 'merchant_reference',
    en: 'merchant_reference: may contain only Latin letters and digits, plus - _ .',
    ar: 'merchant_reference: يجب أن يقتصر على الحروف اللاتينية والأرقام والرموز - _ .',
  },
  {
    rule: 'enum',
    schema: schemas.captureRequest,
    input: { ...capture, language: 'fr' },
    field: 'language',
    en: 'language: must be one of: en, ar',
    ar: 'language: يجب أن تكون القيمة إحدى: en، ar',
  },
  {
    rule: 'format',
    schema: schemas.billPresentmentRequest,
    input: { ...(validExamples['billPresentmentRequest'] as object), request_expiry_date: '2025-12-31 23:59' },
    field: 'request_expiry_date',
    en: 'request_expiry_date: must be a date and time with a time zone offset, such as 2025-01-31T23:59:59+03:00',
    ar: 'request_expiry_date: يجب أن يكون تاريخًا ووقتًا مع فرق التوقيت، مثل 2025-01-31T23:59:59+03:00',
  },
  {
    rule: 'type',
    schema: schemas.captureRequest,
    input: { ...capture, amount: true },
    field: 'amount',
    en: 'amount: must be text or a number',
    ar: 'amount: يجب أن يكون نصًا أو رقمًا',
  },
  {
    rule: 'unknown_field',
    schema: schemas.captureRequest,
    input: { ...capture, card_number: '4005550000000001' },
    field: 'card_number',
    en: 'card_number: is not a field of this request',
    ar: 'card_number: ليس من حقول هذا الطلب',
  },
];

for (const { rule, schema, input, field, en, ar } of ruleCases) {
  describe(`when a value breaks the ${rule} rule`, () => {
    it('names the field and the rule in English', () => {
      const error = errorOn(refusal(schema, input, 'en'), field);
      assert.equal(error.rule, rule);
      assert.equal(error.message, en);
    });

    it('names the field and the rule in Arabic, the field name kept in Latin', () => {
      const error = errorOn(refusal(schema, input, 'ar'), field);
      assert.equal(error.rule, rule);
      assert.equal(error.message, ar);
    });
  });
}

describe('when merchant_reference is at its length limit', () => {
  it('accepts 40 characters', () => {
    assert.equal(validate(schemas.captureRequest, { ...capture, merchant_reference: 'r'.repeat(40) }, 'en').ok, true);
  });

  it('refuses 41 characters and reports the limit', () => {
    const error = errorOn(refusal(schemas.captureRequest, { ...capture, merchant_reference: 'r'.repeat(41) }, 'en'), 'merchant_reference');
    assert.equal(error.limit, 40);
  });
});

describe('when merchant_reference uses special characters', () => {
  it('accepts the listed ones: - _ .', () => {
    assert.equal(validate(schemas.captureRequest, { ...capture, merchant_reference: 'a-b_c.d' }, 'en').ok, true);
  });

  it('refuses any other, such as #', () => {
    const error = errorOn(refusal(schemas.captureRequest, { ...capture, merchant_reference: 'a#b' }, 'en'), 'merchant_reference');
    assert.equal(error.rule, 'charset');
  });

  it('refuses Arabic letters, which a reference is not made of', () => {
    const error = errorOn(refusal(schemas.captureRequest, { ...capture, merchant_reference: 'طلب-1' }, 'en'), 'merchant_reference');
    assert.equal(error.rule, 'charset');
  });
});

describe('when customer_name is written in Arabic', () => {
  const bill = validExamples['billPresentmentRequest'] as Record<string, unknown>;

  it('accepts an Arabic name with a space', () => {
    assert.equal(validate(schemas.billPresentmentRequest, { ...bill, customer_name: 'فاطمة الزهراء' }, 'ar').ok, true);
  });

  it('accepts diacritics (harakat) and the listed punctuation', () => {
    assert.equal(validate(schemas.billPresentmentRequest, { ...bill, customer_name: "مُحَمَّد عبد-الله O'Neil" }, 'ar').ok, true);
  });

  it('refuses digits, which are not part of a name', () => {
    const error = errorOn(refusal(schemas.billPresentmentRequest, { ...bill, customer_name: 'محمد 2' }, 'ar'), 'customer_name');
    assert.equal(error.message, "customer_name: يجب أن يقتصر على الحروف والرموز _ \\ / - . ' والمسافة");
  });

  it('counts 50 Arabic letters as 50 characters', () => {
    assert.equal(validate(schemas.billPresentmentRequest, { ...bill, customer_name: 'م'.repeat(50) }, 'ar').ok, true);
  });
});

describe('when an amount arrives as a string or a number', () => {
  it('keeps a string of digits as a string', () => {
    assert.equal(schemas.captureRequest.parse({ ...capture, amount: '0012' }).amount, '0012');
  });

  it('keeps a number as a number', () => {
    assert.equal(schemas.captureRequest.parse({ ...capture, amount: 1200 }).amount, 1200);
  });

  it('refuses a number of 11 digits by the same length rule as its string', () => {
    const error = errorOn(refusal(schemas.captureRequest, { ...capture, amount: 12_345_678_901 }, 'en'), 'amount');
    assert.equal(error.message, 'amount: must be at most 10 characters');
  });

  it('refuses a decimal number, which is not in minor units', () => {
    assert.equal(errorOn(refusal(schemas.captureRequest, { ...capture, amount: 10.5 }, 'en'), 'amount').rule, 'charset');
  });

  it('refuses a negative number', () => {
    assert.equal(errorOn(refusal(schemas.captureRequest, { ...capture, amount: -5 }, 'en'), 'amount').rule, 'charset');
  });
});

describe('when the plans query answers', () => {
  it('accepts null message fields and keeps them null', () => {
    const parsed = schemas.installmentsPlansResponse.parse(plansResponse);
    const issuer = parsed.installment_detail?.issuer_detail[0];
    assert.equal(issuer?.confirmation_message_en, null);
    assert.equal(issuer?.plan_details[0]?.processing_fees_amount, null);
  });

  // The issuer entries are read with the core's shapes (the browser reads them too), which name
  // where they refused but not what they expected: a value that is there "is not valid".
  it('refuses a plan whose number_of_installment is not an integer, or is missing, naming the field', () => {
    for (const [value, rule] of [
      [true, 'invalid'],
      ['6.5', 'invalid'],
      [undefined, 'required'],
    ] as const) {
      const broken = structuredClone(plansResponse);
      const plan = broken.installment_detail.issuer_detail[0]?.plan_details[0] as Record<string, unknown>;
      plan['number_of_installment'] = value;
      const error = errorOn(
        refusal(schemas.installmentsPlansResponse, broken, 'en'),
        'installment_detail.issuer_detail[0].plan_details[0].number_of_installment',
      );
      assert.equal(error.rule, rule);
    }
  });

  it('reads the whole numbers an XML answer writes as digits, and takes a null it leaves out as absent', () => {
    const fromXml = structuredClone(plansResponse);
    const issuer = fromXml.installment_detail.issuer_detail[0] as Record<string, unknown>;
    delete issuer['confirmation_message_en'];
    const plan = (issuer['plan_details'] as Record<string, unknown>[])[0] as Record<string, unknown>;
    plan['number_of_installment'] = '6';
    plan['fees_amount'] = String(plan['fees_amount']);
    const parsed = schemas.installmentsPlansResponse.parse(fromXml).installment_detail?.issuer_detail[0];
    assert.equal(parsed?.plan_details[0]?.number_of_installment, 6);
    assert.equal(typeof parsed?.plan_details[0]?.fees_amount, 'number');
    assert.equal(parsed?.confirmation_message_en, undefined);
  });
});

describe('when OTP_VERIFY answers with tenure options', () => {
  it('reads the tenure object with its TENURE_VM list', () => {
    const parsed = schemas.otpVerifyResponse.parse(otpVerifyResponse);
    assert.deepEqual(parsed.tenure?.TENURE_VM, [{ EMI: '1750.00', TENURE: '3', InterestRate: '2.5' }]);
  });

  it('refuses the hyphen-joined string OTP_GENERATE uses', () => {
    const error = errorOn(refusal(schemas.otpVerifyResponse, { ...otpVerifyResponse, tenure: '3-6' }, 'en'), 'tenure');
    assert.equal(error.rule, 'type');
  });
});

describe('when OTP_GENERATE answers with tenure', () => {
  const generated = validExamples['otpGenerateResponse'] as Record<string, unknown>;

  it('reads month counts joined by hyphens', () => {
    assert.equal(schemas.otpGenerateResponse.parse(generated).tenure, '3-6-9-12');
  });

  it('refuses another separator', () => {
    const error = errorOn(refusal(schemas.otpGenerateResponse, { ...generated, tenure: '3,6' }, 'en'), 'tenure');
    assert.equal(error.message, 'tenure: must be month counts joined by hyphens, such as 3-6-12');
  });
});

describe('when a list entry is wrong', () => {
  it('names the entry by its place in the list', () => {
    const otp = validExamples['otpGenerateRequest'] as Record<string, unknown>;
    const errors = refusal(schemas.otpGenerateRequest, { ...otp, products: [{ product_name: 'TV', product_price: '1' }] }, 'en');
    assert.equal(errorOn(errors, 'products[0].product_category').message, 'products[0].product_category: is required');
  });

  it('refuses an empty products list', () => {
    const otp = validExamples['otpGenerateRequest'] as Record<string, unknown>;
    assert.equal(errorOn(refusal(schemas.otpGenerateRequest, { ...otp, products: [] }, 'en'), 'products').rule, 'empty');
  });
});

describe('when a trusted-channel purchase has neither card nor token', () => {
  it('asks for the card number and expiry date', () => {
    const { card_number: _n, expiry_date: _e, card_security_code: _c, ...rest } = validExamples['trustedChannelRequest'] as Record<
      string,
      unknown
    >;
    const errors = refusal(schemas.trustedChannelRequest, rest, 'en');
    assert.deepEqual(
      errors.map((error) => error.message),
      ['card_number: is required when token_name is not sent', 'expiry_date: is required when token_name is not sent'],
    );
  });
});

describe('when the hosted page returns to the merchant', () => {
  it('accepts a tokenization answer, which has service_command instead of command', () => {
    const answer = {
      service_command: 'TOKENIZATION',
      ...identity,
      merchant_reference: 'TOK-1',
      language: 'en',
      ...outcome('18000', '18'),
      token_name: 'tok_1',
      card_number: '400555******0001',
      expiry_date: '2705',
    };
    assert.equal(validate(schemas.hostedPageResponse, answer, 'en').ok, true);
  });

  it('refuses an answer with neither command nor service_command', () => {
    const { command: _command, ...rest } = validExamples['hostedPageResponse'] as Record<string, unknown>;
    assert.equal(errorOn(refusal(schemas.hostedPageResponse, rest, 'en'), 'command').rule, 'required_without');
  });
});

describe('when the Arabic message counts characters', () => {
  const maxLength = (limit: number) => FIELD_MESSAGES.ar.max_length({ limit });

  it('uses the plural for 3 to 10', () => assert.equal(maxLength(8), 'يجب ألا يزيد عن ٨ أحرف'));
  it('uses the singular accusative for 11 to 99', () => assert.equal(maxLength(20), 'يجب ألا يزيد عن ٢٠ حرفًا'));
  it('uses the singular genitive for round hundreds', () => assert.equal(maxLength(200), 'يجب ألا يزيد عن ٢٠٠ حرف'));
  it('uses the dual for 2', () => assert.equal(maxLength(2), 'يجب ألا يزيد عن حرفين'));
});

describe('when the message catalog is complete', () => {
  it('has a message for every rule in both languages', () => {
    assert.deepEqual(Object.keys(FIELD_MESSAGES.ar).sort(), Object.keys(FIELD_MESSAGES.en).sort());
  });

  it('refuses at compile time a catalog missing an Arabic message', () => {
    const { invalid: _dropped, ...incompleteArabic } = FIELD_MESSAGES.ar;
    // @ts-expect-error the Arabic messages lack `invalid`
    const catalog: MessageCatalog = { en: FIELD_MESSAGES.en, ar: incompleteArabic };
    assert.ok(catalog);
  });
});

// ---- Properties over every length-limited field of the rules table ----

const SAMPLE_CHARACTERS: Record<Exclude<Charset, 'text'>, string> = {
  alpha: 'ABCXYZabcxyz',
  upper: 'ABCDEFXYZ',
  letters: 'AbzéÑابتثجحخدذرزسشصضطظعغفقكلمنهويءةىَُِّ',
  numeric: '0123456789',
  alphanumeric: 'ABCXYZabcxyz0189',
};

/** Characters a value of the rule may hold. */
function alphabet(rule: FieldRule): fc.Arbitrary<string> {
  if (rule.charset === 'text') return fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme-ascii' });
  return fc.constantFrom(...SAMPLE_CHARACTERS[rule.charset], ...(rule.special ?? ''));
}

const limitedFields = (Object.entries(FIELD_RULES) as [FieldName, FieldRule][]).filter(
  ([, rule]) => rule.maxLength !== undefined && rule.values === undefined && rule.format === undefined,
);

describe('when a string from a field’s alphabet is within its maximum length', () => {
  for (const [name, rule] of limitedFields) {
    it(`${name} accepts it`, () => {
      const schema = fieldFromRule(rule);
      const values = fc.array(alphabet(rule), { minLength: 1, maxLength: rule.maxLength }).map((chars) => chars.join(''));
      fc.assert(fc.property(values, (value) => schema.safeParse(value).success));
    });
  }
});

describe('when a string is over a field’s maximum length', () => {
  for (const [name, rule] of limitedFields) {
    it(`${name} refuses it as max_length`, () => {
      const schema = fieldFromRule(rule);
      const max = rule.maxLength ?? 0;
      const values = fc.array(alphabet(rule), { minLength: max + 1, maxLength: max + 30 }).map((chars) => chars.join(''));
      fc.assert(
        fc.property(values, (value) => {
          const result = validate(schema, value, 'en');
          return !result.ok && result.errors.some((error) => error.rule === 'max_length' && error.limit === max);
        }),
      );
    });
  }
});

describe('when a character is outside a field’s alphabet', () => {
  it('merchant_reference refuses it wherever it stands', () => {
    const pattern = charsetPattern('alphanumeric', '-_.');
    const outsider = fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }).filter((c) => !pattern.test(c));
    const legal = fc.array(alphabet(FIELD_RULES.merchant_reference), { maxLength: 10 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(legal, outsider, legal, (before, bad, after) => {
        const result = validate(fieldFromRule(FIELD_RULES.merchant_reference), `${before}${bad}${after}`, 'en');
        return !result.ok && result.errors.some((error) => error.rule === 'charset');
      }),
    );
  });
});
