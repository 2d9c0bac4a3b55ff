/**
 * `pg-checkout/core`: the gateway's rules as pure functions, shared by the elements, the merchant
 * endpoint, the sandbox gateway and the CLI. No DOM, no Lit; runs in browsers, Node and edge runtimes.
 */
export * from './language.ts';
export * from './amounts.ts';
export * from './amount-messages.ts';
export * from './signature.ts';
export * from './wire-names.ts';
export * from './response.ts';
export * from './order-status.ts';
export * from './payment-attempts.ts';
export * from './partners.ts';
export * from './schemas/index.ts';
export * from './field-errors.ts';
export * from './card-number.ts';
export * from './voucher.ts';
export * from './xml.ts';
export * from './csv.ts';
export * from './batch-file.ts';
export * from './report-file.ts';
export * from './exchange.ts';
/** The element ↔ merchant endpoint contract (routes and their schemas), as one namespace. */
export * as endpointApi from './endpoint-api.ts';
export { ROUTES, CARD_FIELDS, ORDER_TOKEN_HEADER } from './endpoint-api.ts';
export * from './installments.ts';
export * from './customer-outcome.ts';
/** `customer_name` cleaned and cut the way the gateway takes it, as the endpoint sends a bill's. */
export { customerNameForGateway } from './customer-name.ts';
