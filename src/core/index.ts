/**
 * `pg-checkout/core`: the gateway's rules as pure functions, shared by the elements, the merchant
 * endpoint, the sandbox gateway and the CLI. No DOM, no Lit; runs in browsers, Node and edge runtimes.
 */
export * from './language.ts';
export * from './amounts.ts';
export * from './signature.ts';
export * from './response.ts';
export * from './partners.ts';
export * from './endpoint-api.ts';
