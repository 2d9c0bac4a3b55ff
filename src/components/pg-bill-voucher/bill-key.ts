/**
 * Where a bill issued in this browser session is kept (bill-memory.ts), under its order's
 * reference: its own module, so that `<pg-checkout>` reads it without loading `<pg-bill-voucher>`.
 */
export const billMemoryKey = (merchantReference: string): string => `pg-bill-voucher:${merchantReference}`;
