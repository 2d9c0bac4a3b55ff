/**
 * Tokens in the sandbox: storing one (kept, or temporary for the payment it was made for), what
 * stops one from paying, and the token services of paymentApi: GET_TOKENS, UPDATE_TOKEN and
 * TOKENIZATION with clear card data (the trusted channel's "create token").
 *
 * Kept or temporary: a page TOKENIZATION keeps its token only with `remember_me=YES` on an account
 * with tokenization activated; otherwise the token pays the payment of its merchant_reference,
 * once, within the page session, is never listed and never pays a recurring charge.
 */
import { cardSchemeOf, isExpiredYymm, isLuhnValid, maskCardNumber } from '../core/card-number.ts';
import { formatDateTimeWithOffset } from '../core/dates.ts';
import type { KnownResponseCode } from '../core/response.ts';
import { getTokensRequest, tokenizationApiRequest, updateTokenRequest } from '../core/schemas/index.ts';
import type { SignableValue } from '../core/signature.ts';
import { outcomeOf } from './charges.ts';
import { checkRequest, type GatewayContext } from './context.ts';
import { hasService, type GatewayAccount } from './merchants.ts';
import type { EnteredCard, SandboxToken } from './state.ts';
import { PAGE_SESSION_MS } from './test-cards.ts';
import { apiAnswer, readDateField } from './wire.ts';

type Params = Record<string, SignableValue>;

/** True when a page TOKENIZATION keeps its token: the customer agreed (remember_me YES) and the account may keep tokens. */
export function keepsToken(merchant: GatewayAccount, rememberMe: unknown): boolean {
  return rememberMe === 'YES' && hasService(merchant, 'tokenization');
}

/**
 * Stores `card` under `tokenName`: kept, or (with `temporaryFor`, a merchant_reference) temporary.
 * A name already in use is updated with the new card and made ACTIVE; a kept token stays kept.
 */
export function saveToken(
  ctx: GatewayContext,
  merchant: GatewayAccount,
  tokenName: string,
  card: EnteredCard,
  temporaryFor?: string,
): string {
  const existing = ctx.state.token(merchant.merchantIdentifier, tokenName);
  const temporary = temporaryFor !== undefined && (!existing || existing.temporary !== undefined);
  ctx.state.saveToken({
    merchantIdentifier: merchant.merchantIdentifier,
    tokenName,
    cardNumber: card.number,
    scheme: card.scheme,
    expiryDate: card.expiryDate,
    ...(card.holderName ? { holderName: card.holderName } : {}),
    createdAt: existing?.createdAt ?? ctx.now(),
    status: 'ACTIVE',
    ...(temporary ? { temporary: { merchantReference: temporaryFor, expiresAt: ctx.now() + PAGE_SESSION_MS, spent: false } } : {}),
  });
  return tokenName;
}

/** Why a stored token cannot pay this charge (00015 inactive, 00016 temporary and not this payment's), or undefined. */
export function tokenRefusal(
  token: SandboxToken,
  charge: { readonly merchantReference: string; readonly eci: string },
  now: number,
): KnownResponseCode | undefined {
  if (token.status === 'INACTIVE') return '00015';
  const { temporary } = token;
  if (!temporary) return undefined;
  const otherPayment = temporary.merchantReference !== charge.merchantReference;
  if (otherPayment || temporary.spent || now >= temporary.expiresAt || charge.eci === 'RECURRING') return '00016';
  return undefined;
}

/** A temporary token has paid its payment: it pays nothing more. */
export function spendToken(ctx: GatewayContext, merchant: GatewayAccount, tokenName: string): void {
  const token = ctx.state.token(merchant.merchantIdentifier, tokenName);
  if (token?.temporary) ctx.state.saveToken({ ...token, temporary: { ...token.temporary, spent: true } });
}

/** The token as the token services describe it. */
function tokenFields(token: SandboxToken): Record<string, string> {
  return {
    card_number: maskCardNumber(token.cardNumber),
    expiry_date: token.expiryDate,
    token_name: token.tokenName,
    card_brand: token.scheme,
    card_bin: token.cardNumber.slice(0, 6),
    token_status: token.status,
    creation_date: formatDateTimeWithOffset(token.createdAt),
  };
}

// ---- GET_TOKENS ----

/**
 * GET_TOKENS (54000): the kept tokens created within [from_date, to_date] (to the end of to_date's
 * second), optionally of one status, oldest first, as `data_list` of `data` entries with
 * `data_count`. A bound not sent is open: to_date is then now and from_date the oldest token's
 * creation; the answer names both.
 */
export async function getTokens(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, getTokensRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'tokenization')) return apiAnswer(params, merchant, '00014');
  const fromDate = data.from_date === undefined ? undefined : readDateField('from_date', data.from_date, data.language);
  if (fromDate && 'refused' in fromDate) return apiAnswer(params, merchant, '00002', {}, fromDate.refused);
  const toDate = data.to_date === undefined ? undefined : readDateField('to_date', data.to_date, data.language);
  if (toDate && 'refused' in toDate) return apiAnswer(params, merchant, '00002', {}, toDate.refused);
  const from = fromDate?.instant;
  // To the end of to_date's second, as reports count it: a token's creation_date, written to the
  // second, finds it as either bound.
  const to = toDate ? toDate.instant + 999 : ctx.now();
  if (from !== undefined && from > to) return apiAnswer(params, merchant, '55001');
  const kept = ctx.state
    .tokens()
    .filter((token) => token.merchantIdentifier === merchant.merchantIdentifier && token.temporary === undefined)
    .sort((a, b) => a.createdAt - b.createdAt || (a.tokenName < b.tokenName ? -1 : 1));
  const since = from ?? kept[0]?.createdAt ?? to;
  const listed = kept.filter(
    (token) =>
      token.createdAt >= since &&
      token.createdAt <= to &&
      (data.token_status === undefined || token.status === data.token_status),
  );
  return apiAnswer(params, merchant, '54000', {
    // Bounds the merchant sent are echoed as sent.
    ...(data.from_date === undefined ? { from_date: formatDateTimeWithOffset(since) } : {}),
    ...(data.to_date === undefined ? { to_date: formatDateTimeWithOffset(to) } : {}),
    data_list: listed.map(tokenFields),
    data_count: String(listed.length),
    ...(data.response_format === undefined ? { response_format: 'JSON' } : {}),
  });
}

// ---- UPDATE_TOKEN ----

/**
 * UPDATE_TOKEN (58000): a new expiry date or holder name for the card, ACTIVE / INACTIVE, or a new
 * name. Only kept tokens can be updated; a rename to a name in use is refused (59001).
 */
export async function updateToken(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, updateTokenRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'tokenization')) return apiAnswer(params, merchant, '00014');
  const token = ctx.state.token(merchant.merchantIdentifier, data.token_name);
  if (!token) return apiAnswer(params, merchant, '00010');
  if (token.temporary) return apiAnswer(params, merchant, '00016');
  if (data.expiry_date !== undefined && isExpiredYymm(data.expiry_date, new Date(ctx.now()))) {
    return apiAnswer(params, merchant, '00011');
  }
  const newName = data.new_token_name;
  if (newName !== undefined && newName !== token.tokenName && ctx.state.token(merchant.merchantIdentifier, newName)) {
    return apiAnswer(params, merchant, '59001');
  }
  let updated: SandboxToken = {
    ...token,
    ...(data.expiry_date !== undefined ? { expiryDate: data.expiry_date } : {}),
    ...(data.card_holder_name !== undefined ? { holderName: data.card_holder_name } : {}),
    ...(data.token_status !== undefined ? { status: data.token_status } : {}),
  };
  ctx.state.saveToken(updated);
  if (newName !== undefined && newName !== token.tokenName) updated = ctx.state.renameToken(updated, newName);
  const { card_number, token_status, creation_date, card_brand, card_bin } = tokenFields(updated);
  return apiAnswer(params, merchant, '58000', { card_number, token_status, creation_date, card_brand, card_bin });
}

// ---- TOKENIZATION with clear card data ----

/**
 * TOKENIZATION on paymentApi (trusted channel, PCI-certified merchants): verifies the card and
 * keeps a token for it, charging nothing (18000). The same card rules as the merchant page:
 * an invalid card 17003, an expired one 00011.
 */
export async function tokenizeCard(ctx: GatewayContext, params: Params): Promise<Response> {
  const checked = await checkRequest(ctx, params, tokenizationApiRequest);
  if (!checked.ok) return apiAnswer(params, checked.merchant, checked.code, {}, checked.detail);
  const { merchant, data } = checked;
  if (!hasService(merchant, 'tokenization')) return apiAnswer(params, merchant, '00014');
  const scheme = cardSchemeOf(data.card_number);
  if (!isLuhnValid(data.card_number) || !scheme || outcomeOf(data.card_number) === 'invalid_card') {
    return apiAnswer(params, merchant, '17003');
  }
  if (isExpiredYymm(data.expiry_date, new Date(ctx.now()))) return apiAnswer(params, merchant, '00011');
  const card: EnteredCard = {
    number: data.card_number,
    scheme,
    expiryDate: data.expiry_date,
    ...(data.card_holder_name ? { holderName: data.card_holder_name } : {}),
  };
  const tokenName = saveToken(ctx, merchant, data.token_name ?? ctx.state.newTokenName(), card);
  return apiAnswer(params, merchant, '18000', { token_name: tokenName, card_bin: card.number.slice(0, 6), payment_option: scheme });
}
