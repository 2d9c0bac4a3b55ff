/**
 * 3-D Secure services (spec, "3-D Secure standalone flow" and "Other services"):
 *
 *   3DS_ENROLLMENT → 3ds_enrolled Y or N, a threeds_id, and for an enrolled card either a
 *   `3ds_url` (processor of the first type: the issuer's page, which posts its parameters
 *   URL-encoded to merchant_3ds_url) or MD and PaRes (processor of the second type).
 *   3DS_AUTHENTICATION with those parameters in third_party_body → 3ds_status, 3ds_eci, 3ds_xid,
 *   ver_token; only for an enrolled card, once per check, within the page session.
 *   External MPI: a PURCHASE / AUTHORIZATION carrying such a result is charged without a
 *   challenge, or declined when the result is a failed authentication.
 *
 * What each test card does: test-cards.ts. The first processor type's parameters are this
 * sandbox's own: `threeds_id`, `acs_result` (Y or N) and `acs_reference` (a one-time proof).
 */
import { formatMoney, parseWireAmount } from '../core/amounts.ts';
import { cardSchemeOf, isExpiredYymm, isLuhnValid, maskCardNumber, type CardScheme } from '../core/card-number.ts';
import { fieldError } from '../core/field-errors.ts';
import type { Language } from '../core/language.ts';
import type { KnownResponseCode } from '../core/response.ts';
import { threeDsAuthenticationRequest, threeDsEnrollmentRequest } from '../core/schemas/index.ts';
import type { SignableValue } from '../core/signature.ts';
import { isEnrolled, outcomeOf } from './charges.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import { framingOriginsOf, hasService } from './merchants.ts';
import { PAGE_TEXT } from './page-text.ts';
import { challengePage, htmlResponse, messagePage, resultPage, returnPage, type SummaryLine } from './pages.ts';
import type { ThreeDsEnrollment } from './state.ts';
import { PAGE_SESSION_MS } from './test-cards.ts';
import { apiAnswer, BodyError, httpUrl, isChargeableCurrency, randomHex, readForm, requestLanguage } from './wire.ts';

type Params = Record<string, SignableValue>;

/** The Electronic Commerce Indicator of an authentication result, by scheme: Visa 05 / 07, MasterCard 02 / 00. */
export function eciOf(scheme: CardScheme, authenticated: boolean): string {
  if (scheme === 'MASTERCARD') return authenticated ? '02' : '00';
  return authenticated ? '05' : '07';
}

/** Random bytes as base64, the shape of an XID or a CAVV (ver_token). */
function randomBase64(bytes: number): string {
  const hex = randomHex(bytes);
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return btoa(binary);
}

/** The issuer's decision on a check, with the proof and the values authentication answers. */
function decide(authenticated: boolean): NonNullable<ThreeDsEnrollment['decision']> {
  return { authenticated, proof: randomBase64(24), xid: randomBase64(20), verToken: randomBase64(20) };
}

/** A check that can still be used: known, the merchant's, not used, within the page session. */
function liveEnrollment(ctx: GatewayContext, id: string | null | undefined): ThreeDsEnrollment | undefined {
  const enrollment = id ? ctx.state.enrollments.get(id) : undefined;
  if (!enrollment || enrollment.used || ctx.now() - enrollment.createdAt >= PAGE_SESSION_MS) return undefined;
  return enrollment;
}

/** The absolute address of the issuer's page for a check, on the host the request came to. */
export function acsUrl(ctx: GatewayContext, requestUrl: string, id: string): string {
  const url = new URL(ctx.paths.acs, requestUrl);
  url.searchParams.set('id', id);
  return url.href;
}

// ---- 3DS_ENROLLMENT ----

export async function threeDsEnrollment(ctx: GatewayContext, params: Params, requestUrl: string): Promise<Response> {
  const checked = await checkRequest(ctx, params, threeDsEnrollmentRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  const language = requestLanguage(params);
  if (!hasService(merchant, '3ds')) return apiAnswer(params, merchant, '00014');
  if (!isChargeableCurrency(data.currency)) return apiAnswer(params, merchant, '00009');
  const amount = parseWireAmount(data.amount);
  if (amount <= 0) return apiAnswer(params, merchant, '00002', {}, fieldError('amount', 'invalid', {}, language).message);
  const merchant3dsUrl = httpUrl(data.merchant_3ds_url);
  if (!merchant3dsUrl) {
    return apiAnswer(params, merchant, '00002', {}, fieldError('merchant_3ds_url', 'invalid', {}, language).message);
  }
  const scheme = cardSchemeOf(data.card_number);
  const outcome = outcomeOf(data.card_number);
  if (!isLuhnValid(data.card_number) || !scheme || outcome === 'invalid_card') return apiAnswer(params, merchant, '45001');
  if (isExpiredYymm(data.expiry_date, new Date(ctx.now()))) return apiAnswer(params, merchant, '00011');

  const enrolled = isEnrolled(outcome);
  const processor = outcome === '3ds' ? 'acs' : 'md_pares';
  const enrollment: ThreeDsEnrollment = {
    id: ctx.state.newPageId(),
    merchant,
    merchantReference: data.merchant_reference,
    card: { number: data.card_number, scheme, expiryDate: data.expiry_date },
    amount,
    currency: data.currency,
    enrolled,
    processor,
    merchant3dsUrl,
    language,
    createdAt: ctx.now(),
    // The second processor type decides at once: MD and PaRes come with the enrollment.
    ...(enrolled && processor === 'md_pares' ? { decision: decide(outcome !== '3ds_fails') } : {}),
    used: false,
  };
  ctx.state.enrollments.set(enrollment.id, enrollment);
  const fields: Record<string, string> = { threeds_id: enrollment.id, '3ds_enrolled': enrolled ? 'Y' : 'N' };
  if (enrolled && enrollment.decision) {
    fields['MD'] = enrollment.id;
    fields['PaRes'] = enrollment.decision.proof;
  } else if (enrolled) {
    fields['3ds_url'] = acsUrl(ctx, requestUrl, enrollment.id);
  }
  return apiAnswer(params, merchant, '44000', fields);
}

// ---- The issuer's page (first processor type) ----

export function showAcsPage(ctx: GatewayContext, request: Request): Response {
  const id = new URL(request.url).searchParams.get('id');
  const enrollment = liveEnrollment(ctx, id);
  if (!enrollment || enrollment.decision || !enrollment.enrolled) return expired(enrollment?.language ?? 'en');
  const { language } = enrollment;
  const text = PAGE_TEXT[language];
  const summary: SummaryLine[] = [
    { label: text.order, value: enrollment.merchantReference, ltr: true },
    { label: text.amount, value: formatMoney(enrollment.amount, enrollment.currency, language) },
    { label: text.card, value: maskCardNumber(enrollment.card.number), ltr: true },
  ];
  const framing = framingOriginsOf(enrollment.merchant, enrollment.merchant3dsUrl);
  return htmlResponse(challengePage({ language, action: ctx.paths.acs, challengeId: enrollment.id, summary, framing }));
}

/** Approve or Fail on the issuer's page: the decision is taken and its parameters posted to merchant_3ds_url. */
export async function answerAcsPage(ctx: GatewayContext, request: Request): Promise<Response> {
  let form: Record<string, string>;
  try {
    form = await readForm(request);
  } catch (error) {
    if (error instanceof BodyError) return htmlResponse(messagePage('en', PAGE_TEXT.en.refusedTitle, error.message, error.httpStatus));
    throw error;
  }
  const enrollment = liveEnrollment(ctx, form['challenge']);
  if (!enrollment || enrollment.decision || !enrollment.enrolled) return expired(enrollment?.language ?? 'en');
  const decision = decide(form['decision'] === 'approve');
  ctx.state.enrollments.set(enrollment.id, { ...enrollment, decision });
  const processorParameters = {
    threeds_id: enrollment.id,
    acs_result: decision.authenticated ? 'Y' : 'N',
    acs_reference: decision.proof,
  };
  const framing = framingOriginsOf(enrollment.merchant, enrollment.merchant3dsUrl);
  if (enrollment.merchant3dsUrl) return htmlResponse(returnPage(enrollment.language, enrollment.merchant3dsUrl, processorParameters, framing));
  return htmlResponse(resultPage(enrollment.language, processorParameters, 200, framing));
}

function expired(language: Language): Response {
  const text = PAGE_TEXT[language];
  return htmlResponse(messagePage(language, text.expiredTitle, text.expiredText, 410));
}

// ---- 3DS_AUTHENTICATION ----

/**
 * Reads third_party_body in either shape: the first type's parameters (threeds_id, acs_reference)
 * or `MD=…&PaRes=…`. The check must be the merchant's, for the same merchant_reference, enrolled
 * (45002 otherwise), decided (45004), and the proof must be the one issued (45003 otherwise).
 */
export async function threeDsAuthentication(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, threeDsAuthenticationRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, '3ds')) return apiAnswer(params, merchant, '00014');
  const body = new URLSearchParams(data.third_party_body);
  const enrollment = liveEnrollment(ctx, body.get('MD') ?? body.get('threeds_id'));
  const ours = enrollment && enrollment.merchant === merchant && enrollment.merchantReference === data.merchant_reference;
  if (!enrollment || !ours) return apiAnswer(params, merchant, '45003');
  if (!enrollment.enrolled) return apiAnswer(params, merchant, '45002');
  const { decision } = enrollment;
  if (!decision) return apiAnswer(params, merchant, '45004');
  const proof = body.get('PaRes') ?? body.get('acs_reference');
  if (proof !== decision.proof) return apiAnswer(params, merchant, '45003');
  ctx.state.enrollments.set(enrollment.id, { ...enrollment, used: true });
  return apiAnswer(params, merchant, '44000', {
    threeds_id: enrollment.id,
    '3ds_enrolled': 'Y',
    '3ds_status': decision.authenticated ? 'Y' : 'N',
    '3ds_eci': eciOf(enrollment.card.scheme, decision.authenticated),
    '3ds_xid': decision.xid,
    // Listed in the spec's answer whatever the status; after a failed check it authenticates nothing
    // (an External MPI result with 3ds_status N is declined).
    ver_token: decision.verToken,
  });
}

// ---- External MPI ----

const MPI_FIELDS = ['3ds_enrolled', '3ds_status', '3ds_eci', '3ds_xid', 'ver_token'] as const;

export type MpiResult = Partial<Record<(typeof MPI_FIELDS)[number], string>>;

export type MpiDecision =
  | { readonly ok: true; readonly threeDs: 'skip' | 'failed' }
  | { readonly ok: false; readonly code: KnownResponseCode; readonly detail: string };

/**
 * What an External MPI result on a charge decides, or undefined when the charge carries none.
 * Not enrolled (3ds_enrolled N): charged without authentication. Enrolled: 3ds_status and 3ds_eci
 * are needed, and for Y or A (authenticated, attempted) 3ds_xid and ver_token too; N is a failed
 * authentication and declines the charge; Y, A and U are charged without a challenge.
 */
export function externalMpiDecision(result: MpiResult, language: Language): MpiDecision | undefined {
  if (!MPI_FIELDS.some((name) => result[name] !== undefined)) return undefined;
  const missing = (name: (typeof MPI_FIELDS)[number]): MpiDecision => ({
    ok: false,
    code: '00001',
    detail: fieldError(name, 'required', {}, language).message,
  });
  if (result['3ds_enrolled'] === undefined) return missing('3ds_enrolled');
  if (result['3ds_enrolled'] === 'N') return { ok: true, threeDs: 'skip' };
  if (result['3ds_status'] === undefined) return missing('3ds_status');
  if (result['3ds_eci'] === undefined) return missing('3ds_eci');
  if (result['3ds_status'] === 'N') return { ok: true, threeDs: 'failed' };
  if (result['3ds_status'] === 'Y' || result['3ds_status'] === 'A') {
    if (result['3ds_xid'] === undefined) return missing('3ds_xid');
    if (result.ver_token === undefined) return missing('ver_token');
  }
  return { ok: true, threeDs: 'skip' };
}
