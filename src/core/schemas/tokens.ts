/**
 * Tokens on paymentApi: the token list (GET_TOKENS), updating a token (UPDATE_TOKEN) and creating
 * one from clear card data (TOKENIZATION on the trusted channel). The spec gives the list's XML
 * shape and leaves the requests open; the fields are decisions recorded in docs/decisions.md.
 */
import * as z from 'zod/mini';
import { field, pure } from './fields.ts';
import { apiOptions, identity, maskedCardNumber, merchantExtras, outcome } from './shared.ts';

const tokenListShape = pure(() => ({
  query_command: z.literal('GET_TOKENS'),
  ...identity,
  language: field('language'),
  signature: field('signature'),
  /** Creation dates from this instant on (ISO 8601 with offset). */
  from_date: z.optional(field('from_date')),
  /** Creation dates up to this instant. */
  to_date: z.optional(field('to_date')),
  token_status: z.optional(field('token_status')),
  ...apiOptions,
}));

/** GET_TOKENS: the merchant's stored tokens, optionally by creation date and status. */
export const getTokensRequest = pure(() => z.strictObject(tokenListShape));

/** One token of the list (spec, "Token list response (XML shape)"): a `data` node of `data_list`. */
export const tokenListEntry = pure(() => z.looseObject({
  card_number: maskedCardNumber,
  expiry_date: field('expiry_date'),
  token_name: field('token_name'),
  card_brand: field('card_brand'),
  card_bin: field('card_bin'),
  token_status: field('token_status'),
  creation_date: field('creation_date'),
}));

/** GET_TOKENS answer (54000, status 54): the window applied, the tokens and their count. */
export const getTokensResponse = pure(() => z.looseObject({
  ...tokenListShape,
  ...outcome,
  from_date: z.optional(field('from_date')),
  to_date: z.optional(field('to_date')),
  data_list: z.optional(z.array(tokenListEntry)),
  data_count: z.optional(z.union([field('data_count'), z.number()])),
}));

const updateTokenShape = pure(() => ({
  service_command: z.literal('UPDATE_TOKEN'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  token_name: field('token_name'),
  token_status: z.optional(field('token_status')),
  expiry_date: z.optional(field('expiry_date')),
  card_holder_name: z.optional(field('card_holder_name')),
  new_token_name: z.optional(field('new_token_name')),
  ...apiOptions,
}));

/** UPDATE_TOKEN: the card bound to a token (expiry, holder), its status, or its name. */
export const updateTokenRequest = pure(() => z.strictObject(updateTokenShape));

/** UPDATE_TOKEN answer (58000, status 58): the token as it now is. */
export const updateTokenResponse = pure(() => z.looseObject({
  ...updateTokenShape,
  ...outcome,
  card_number: z.optional(maskedCardNumber),
  token_status: z.optional(field('token_status')),
  creation_date: z.optional(field('creation_date')),
  card_brand: z.optional(field('card_brand')),
  card_bin: z.optional(field('card_bin')),
}));

const tokenizationApiShape = pure(() => ({
  service_command: z.literal('TOKENIZATION'),
  ...identity,
  merchant_reference: field('merchant_reference'),
  language: field('language'),
  signature: field('signature'),
  card_number: field('card_number'),
  expiry_date: field('expiry_date'),
  card_security_code: z.optional(field('card_security_code')),
  card_holder_name: z.optional(field('card_holder_name')),
  token_name: z.optional(field('token_name')),
  remember_me: z.optional(field('remember_me')),
  return_url: z.optional(field('return_url')),
  ...merchantExtras,
  ...apiOptions,
}));

/** TOKENIZATION on paymentApi with clear card data (trusted channel): verifies the card, stores a token, charges nothing. */
export const tokenizationApiRequest = pure(() => z.strictObject(tokenizationApiShape));

/** The trusted-channel TOKENIZATION answer (18000, status 18): the token, the masked card, its BIN and scheme. */
export const tokenizationApiResponse = pure(() => z.looseObject({
  ...tokenizationApiShape,
  ...outcome,
  card_number: maskedCardNumber,
  token_name: z.optional(field('token_name')),
  card_bin: z.optional(field('card_bin')),
  payment_option: z.optional(field('payment_option')),
}));

// ---- Types ----

export type GetTokensRequest = z.infer<typeof getTokensRequest>;
export type TokenListEntry = z.infer<typeof tokenListEntry>;
export type GetTokensResponse = z.infer<typeof getTokensResponse>;
export type UpdateTokenRequest = z.infer<typeof updateTokenRequest>;
export type UpdateTokenResponse = z.infer<typeof updateTokenResponse>;
export type TokenizationApiRequest = z.infer<typeof tokenizationApiRequest>;
export type TokenizationApiResponse = z.infer<typeof tokenizationApiResponse>;
