/**
 * The gateway's wire shapes (spec, "Resources and their fields" and "Endpoints") as zod schemas
 * shared by the browser, the merchant endpoint, the sandbox and the back-office client: one file
 * per resource, so an operation's shape is found by its name, built from the one table of field
 * rules in fields.ts.
 */
export * from './fields.ts';
export type { WireAmount } from './shared.ts';
export * from './hosted-page.ts';
export * from './maintenance.ts';
export * from './card-operations.ts';
export * from './installments.ts';
export * from './bill.ts';
export * from './financing.ts';
export * from './status.ts';
export * from './report.ts';
export * from './three-ds.ts';
export * from './tokens.ts';
export * from './exchange.ts';
export * from './batch.ts';
