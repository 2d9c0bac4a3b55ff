/** The policy every demo page is served with: what a merchant page embedding pg-checkout needs. */
export const DEMO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The gateway's card page (embedded) and the bank's 3-D Secure page: here the sandbox, on this origin.
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
