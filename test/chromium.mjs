// Debian's Chromium, as every browser-driving part of the project starts it: the element tests
// (web-test-runner), the end-to-end suite and the benchmark. Never a downloaded browser build; the
// flags keep it off the closed network (no background, component or sync traffic, no QUIC).

/** The binary: `CHROME_PATH`, else Debian's `/usr/bin/chromium`. */
export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
