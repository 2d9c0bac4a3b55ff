/**
 * What the customer feels: the drop-in page loaded in real Chromium on an emulated mid-range phone
 * (4× CPU slowdown) over a slow mobile network (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up), served gzip-compressed, with Adyen's Card beside it in the same run. Each load is a new
 * browser with a fresh profile (`--user-data-dir` in a new temporary folder), so no cache, no
 * connection and no compiled code survives from one load to the next.
 *
 * Reported per case: the JavaScript bytes the browser transferred (bytes on the wire, headers
 * included, as Chromium's `encodedDataLength` counts them) before the customer can act, and the
 * time from navigation until the first control can be used (the Pay button and the card number
 * field; in the embedded card mode the method choice, then the card field on the gateway's page).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type CDPSession } from 'playwright-core';
import { ROUTES } from '../src/core/endpoint-routes.ts';
import { checkoutMessages } from '../src/components/pg-checkout/messages.ts';
import { renderFirstScreen } from '../src/server/first-screen.ts';
import { PLANS_ORDER } from './installments-data.ts';
import { buildEntry, entryPath, OUT_DIR, type BuiltEntry } from './build.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { endpointStub, STUB_PREFIX } from './endpoint-stub.ts';
import { writePage } from './page-template.ts';
import type { SectionResult, TargetRow } from './report.ts';
import { startStaticServer } from './static-server.ts';
import { formatMs, formatRatio, median } from './stats.ts';

/** The phone and the network, as Chromium's DevTools protocol emulates them. */
export const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
} as const;

export interface PhoneOptions {
  readonly loads: number;
  readonly timeoutMs: number;
}

/** `kB` as the targets count it: 1000 bytes. */
export const kB = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} kB` : 'n/a');

/** A moment the page reaches, checked in the page once per frame; returns `performance.now()` when reached. */
type Probe = string;

interface PhoneCase {
  readonly name: string;
  readonly label: string;
  readonly built: () => Promise<BuiltEntry>;
  readonly markup: string;
  /** The first control the customer can use; its time is the case's figure. */
  readonly ready: Probe;
  readonly readyLabel: string;
  /** A later moment worth reporting (the order's amount on the Pay button, the gateway's card field), if any. */
  readonly later?: { readonly probe: Probe; readonly label: string };
}

const GATEWAY_PAGE = `${STUB_PREFIX}/gateway/paymentPage`;

/**
 * The merchant endpoint's stub, plus the embedded mode's signed form and a stand-in for the
 * gateway's card page (the real one is on the gateway's servers, out of reach offline): a small
 * HTML form with a card number field and a Pay button, no script. Its weight is not the real
 * page's, so the embedded mode's card-field time is a lower bound, like Adyen's.
 */
function phoneStub(): (request: IncomingMessage, response: ServerResponse) => void {
  const stub = endpointStub();
  return (request, response) => {
    const url = request.url ?? '';
    if (request.method === 'POST' && url === `${STUB_PREFIX}${ROUTES.merchantPage}`) {
      request.resume();
      request.on('end', () => {
        const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            action: `${origin}${GATEWAY_PAGE}`,
            method: 'POST',
            fields: { service_command: 'TOKENIZATION', merchant_reference: 'BENCH-0001', language: 'en', signature: 'f'.repeat(64) },
          }),
        );
      });
      return;
    }
    if (url === GATEWAY_PAGE) {
      request.resume();
      request.on('end', () => {
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><html lang="en"><meta charset="utf-8"><title>Card</title><form method="post">' +
              '<label>Card number <input name="card_number" autocomplete="cc-number" inputmode="numeric"></label>' +
              '<label>Expiry <input name="expiry_date"></label><label>Security code <input name="card_security_code"></label>' +
              '<button>Pay</button></form></html>',
          );
      });
      return;
    }
    stub(request, response);
  };
}

/** In the page: the drop-in's card number field and Pay button, both usable. */
const CARD_FORM_READY: Probe = `(() => {
  const root = document.querySelector('pg-checkout')?.shadowRoot;
  const field = root?.querySelector('input[autocomplete="cc-number"]:not([disabled])');
  const pay = root?.querySelector('button.Pay');
  return field && pay ? performance.now() : null;
})()`;

/** In the page: the Pay button shows the order's amount (the order's answer arrived and was checked). */
const AMOUNT_SHOWN: Probe = `(() => {
  const pay = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('button.Pay');
  return pay && /\\d/.test(pay.textContent ?? '') ? performance.now() : null;
})()`;

/** In the page: the drop-in's first method choice, usable. */
const METHODS_READY: Probe = `(() => {
  const radio = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('input[name="method"]:not([disabled])');
  return radio ? performance.now() : null;
})()`;

/** In the page: the card number field of the gateway's page in the embedded frame. */
const GATEWAY_FIELD_READY: Probe = `(() => {
  const frame = document.querySelector('pg-checkout')?.shadowRoot?.querySelector('iframe.payment-frame');
  const field = frame?.contentDocument?.querySelector('input[name="card_number"]');
  return field ? performance.now() : null;
})()`;

/** In the page: Adyen's card form with its card number slot (its secured field never loads offline). */
const ADYEN_READY: Probe = `(() => {
  const slot = document.querySelector('#app .adyen-checkout__card-input [data-cse="encryptedCardNumber"]');
  return slot ? performance.now() : null;
})()`;

/** In the page: the floor cases' plain card number field and Pay button. */
const PLAIN_FORM_READY: Probe = `(() => {
  const field = document.querySelector('#app input[autocomplete="cc-number"]');
  const pay = document.querySelector('#app button');
  return field && pay ? performance.now() : null;
})()`;

/** A plain card number field and Pay button, no framework, no check. */
const PLAIN_FORM_MARKUP = '<label>Card number <input autocomplete="cc-number" inputmode="numeric"></label><button>Pay</button>';

/** What a floor page's script does: writes the plain form. */
const PLAIN_FORM_SCRIPT = `document.querySelector('#app').innerHTML = ${JSON.stringify(PLAIN_FORM_MARKUP)};\n`;

/**
 * A floor page's script, written as a built entry: the plain form, followed by a comment of random
 * text long enough that the file compresses to `gzipBytes` (within 1 %), so it costs the network
 * what the drop-in's entry costs, and next to nothing to compile or run. Without `gzipBytes`, the
 * script alone.
 */
async function floorEntry(name: string, gzipBytes?: () => Promise<number>, script = PLAIN_FORM_SCRIPT): Promise<BuiltEntry> {
  let contents = Buffer.from(script);
  const target = gzipBytes ? await gzipBytes() : 0;
  let padding = Math.round(target * 1.3);
  for (let step = 0; target > 0 && step < 8; step++) {
    contents = Buffer.from(`${script}/* ${randomBytes(padding).toString('base64').slice(0, padding)} */\n`);
    const size = gzipSync(contents, { level: 9 }).length;
    if (Math.abs(size - target) <= target / 100) break;
    padding = Math.max(0, Math.round(padding * (target / size)));
  }
  const outDir = join(OUT_DIR, 'build', name);
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'floor.js'), contents);
  const file = { name: 'floor.js', kind: 'js', contents, imports: [], arabicOnly: false, holdsContract: false, views: [] } as const;
  return { name, outDir, entryFile: 'floor.js', files: [file], modules: [] };
}

/** The gzip size of the drop-in's entry file, as the floor's padded script matches it. */
async function entryGzipBytes(): Promise<number> {
  const built = await pgBundle();
  const entry = built.files.find((file) => file.name === built.entryFile);
  return entry ? gzipSync(entry.contents, { level: 9 }).length : 0;
}

const DROP_IN = 'mode="drop-in" methods="card installments voucher financing"';
const ENDPOINT_ATTRIBUTES = `endpoint="${STUB_PREFIX}" merchant-reference="BENCH-0001"`;

/** The published bundle folder's split (bundle-chunks.ts), built once for every pg-checkout case. */
let bundleFolder: Promise<BuiltEntry> | undefined;
const pgBundle = () => (bundleFolder ??= buildEntry('phone-pg-checkout', entryPath('../src/define.ts'), { asBundleFolder: true }));

/** In the page: the element has taken the server's first screen over (its own card form is on screen). */
const TAKEN_OVER: Probe = `(() => {
  const root = document.querySelector('pg-checkout')?.shadowRoot;
  return root && !root.querySelector('[data-pg-first-screen]') && root.querySelector('button.Pay') ? performance.now() : null;
})()`;

/**
 * The drop-in as the shop's server writes it with its first screen (src/server/first-screen.ts):
 * the benchmark order's amount, a stand-in signed form posting to the stand-in gateway page.
 */
function firstScreenMarkup(): string {
  return renderFirstScreen({
    form: { action: GATEWAY_PAGE, method: 'POST', fields: { service_command: 'TOKENIZATION', merchant_reference: 'BENCH-0001', language: 'en', signature: 'f'.repeat(64) } },
    amount: PLANS_ORDER.amount,
    currency: PLANS_ORDER.currency,
    language: 'en',
    messages: checkoutMessages.en,
    mode: 'drop-in',
    methods: ['card', 'installments', 'voucher', 'financing'],
    endpoint: STUB_PREFIX,
    merchantReference: 'BENCH-0001',
  });
}

export const PHONE_CASES: readonly PhoneCase[] = [
  {
    name: 'phone-drop-in-merchant-page',
    label: '`<pg-checkout mode="drop-in" card-mode="merchant-page">`',
    built: pgBundle,
    markup: `<pg-checkout ${DROP_IN} card-mode="merchant-page" ${ENDPOINT_ATTRIBUTES}></pg-checkout>`,
    ready: CARD_FORM_READY,
    readyLabel: 'card number field and Pay button',
    later: { probe: AMOUNT_SHOWN, label: 'the order\'s amount on the Pay button' },
  },
  {
    name: 'phone-drop-in-embedded',
    label: '`<pg-checkout mode="drop-in" card-mode="embedded">`',
    built: pgBundle,
    markup: `<pg-checkout ${DROP_IN} card-mode="embedded" ${ENDPOINT_ATTRIBUTES}></pg-checkout>`,
    ready: GATEWAY_FIELD_READY,
    readyLabel: 'card number field on the gateway\'s page, a stand-in (lower bound)',
    later: { probe: METHODS_READY, label: 'the method choice, painted before' },
  },
  {
    name: 'phone-drop-in-first-screen',
    label: '`<pg-checkout mode="drop-in">` with the first screen written by the server',
    built: pgBundle,
    markup: firstScreenMarkup(),
    ready: CARD_FORM_READY,
    readyLabel: 'card number field and Pay button, the server\'s, before any script',
    later: { probe: TAKEN_OVER, label: 'the element took the form over' },
  },
  {
    name: 'phone-floor-html',
    label: 'Floor: a plain field and button in the page\'s HTML, no script',
    built: () => floorEntry('phone-floor-html', undefined, '// nothing to run\n'),
    markup: PLAIN_FORM_MARKUP,
    ready: PLAIN_FORM_READY,
    readyLabel: 'the page alone, painted: what any card form waits for on this phone and network',
  },
  {
    name: 'phone-floor-plain',
    label: 'Floor: a plain field and button from a script of 0.2 kB',
    built: () => floorEntry('phone-floor-plain'),
    markup: '',
    ready: PLAIN_FORM_READY,
    readyLabel: 'the page, then one small script: what any card form loaded by a script waits for',
  },
  {
    name: 'phone-floor-padded',
    label: 'Floor: the same, its script padded to the drop-in entry\'s gzip size',
    built: () => floorEntry('phone-floor-padded', entryGzipBytes),
    markup: '',
    ready: PLAIN_FORM_READY,
    readyLabel: 'the network\'s share of the drop-in\'s time: its bytes, nothing to compile',
  },
  {
    name: 'phone-adyen-card',
    label: 'Adyen Card',
    built: () => buildEntry('phone-adyen-card', entryPath('pages/first-render-adyen.ts')),
    markup: '',
    ready: ADYEN_READY,
    readyLabel: 'its card form, card number slot present (lower bound)',
  },
];

interface Load {
  readonly readyMs: number;
  readonly laterMs: number | undefined;
  /** JavaScript bytes on the wire by the moment the first control could be used (the Resource Timing entries finished by then). */
  readonly jsBytesAtReady: number;
  /** When the page's HTML had arrived (Navigation Timing `responseEnd`). */
  readonly htmlMs: number;
  /** JavaScript bytes on the wire by the time the page settled, before any customer action. */
  readonly jsBytes: number;
  /** Every byte on the wire by then (HTML, CSS, JSON, the frame's page). */
  readonly allBytes: number;
  readonly jsFiles: number;
}

interface CaseSamples {
  readonly testCase: PhoneCase;
  readonly loads: Load[];
  readonly failures: string[];
}

/** Counts what Chromium transfers, by resource type, from the DevTools protocol's network events. */
function countTransfers(session: CDPSession) {
  const scripts = new Set<string>();
  let js = 0;
  let all = 0;
  let jsFiles = 0;
  session.on('Network.responseReceived', (event) => {
    if (event.type === 'Script' || /javascript/.test(event.response.mimeType)) scripts.add(event.requestId);
  });
  session.on('Network.loadingFinished', (event) => {
    all += event.encodedDataLength;
    if (scripts.has(event.requestId)) {
      js += event.encodedDataLength;
      jsFiles += 1;
    }
  });
  return () => ({ js, all, jsFiles });
}

/**
 * A script for the top-level page, run before any of its own: checks every probe once per frame
 * and keeps the first time each one held, in `window.__phone`.
 */
function recorder(probes: Readonly<Record<string, Probe>>): string {
  const checks = Object.entries(probes)
    .map(([name, probe]) => `${JSON.stringify(name)}: () => ${probe}`)
    .join(',\n');
  return `if (window.top === window) {
  const probes = {${checks}};
  const seen = (window.__phone = {});
  const tick = () => {
    for (const [name, probe] of Object.entries(probes)) {
      if (seen[name] === undefined) {
        try { const at = probe(); if (at) seen[name] = at; } catch {}
      }
    }
    if (seen.ready !== undefined && seen.htmlAt === undefined) {
      const navigation = performance.getEntriesByType('navigation')[0];
      seen.htmlAt = navigation ? navigation.responseEnd : -1;
    }
    if (seen.ready !== undefined && seen.jsAtReady === undefined) {
      seen.jsAtReady = performance
        .getEntriesByType('resource')
        .filter((entry) => /[.]m?js([?]|$)/.test(entry.name) && entry.responseEnd <= seen.ready)
        .reduce((sum, entry) => sum + entry.transferSize, 0);
    }
    if (Object.keys(probes).some((name) => seen[name] === undefined)) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}`;
}

/** One cold load of `url` in a new browser with a fresh profile, on the emulated phone and network. */
async function loadOnPhone(url: string, testCase: PhoneCase, timeoutMs: number): Promise<Load> {
  const profile = await mkdtemp(join(tmpdir(), 'pg-bench-phone-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2.6,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const session = await context.newCDPSession(page);
    await session.send('Network.enable');
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: PHONE.uploadBitsPerSecond / 8,
      connectionType: 'cellular3g',
    });
    await session.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
    const probes = { ready: testCase.ready, ...(testCase.later ? { later: testCase.later.probe } : {}) };
    await page.addInitScript(recorder(probes));
    const transferred = countTransfers(session);
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    const handle = await page.waitForFunction(
      (n) => {
        const seen = (window as { __phone?: Record<string, number> }).__phone;
        return seen && n.every((name) => seen[name] !== undefined) ? seen : null;
      },
      Object.keys(probes),
      { polling: 100, timeout: timeoutMs },
    );
    const seen = (await handle.jsonValue()) as Record<string, number>;
    const readyMs = seen['ready']!;
    const laterMs = seen['later'];
    const jsBytesAtReady = seen['jsAtReady'] ?? Number.NaN;
    const htmlMs = seen['htmlAt'] ?? Number.NaN;
    // Whatever the page still loads by itself (the contract's schemas with the order) counts; the customer has not acted.
    await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => undefined);
    const { js, all, jsFiles } = transferred();
    return { readyMs, laterMs, jsBytesAtReady, htmlMs, jsBytes: js, allBytes: all, jsFiles };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

export async function runPhone(options: PhoneOptions, cases: readonly PhoneCase[] = PHONE_CASES): Promise<CaseSamples[]> {
  const pages: string[] = [];
  const samples: CaseSamples[] = [];
  for (const testCase of cases) {
    pages.push(await writePage({ name: testCase.name, built: await testCase.built(), markup: testCase.markup }));
    samples.push({ testCase, loads: [], failures: [] });
  }
  const server = await startStaticServer({ root: OUT_DIR, api: { prefix: STUB_PREFIX, listener: phoneStub() }, gzip: true });
  try {
    for (let load = 0; load < options.loads; load++) {
      for (const [index, sample] of samples.entries()) {
        try {
          sample.loads.push(await loadOnPhone(`${server.origin}${pages[index]}`, sample.testCase, options.timeoutMs));
        } catch (error) {
          sample.failures.push(error instanceof Error ? error.message.split('\n')[0]! : String(error));
        }
      }
    }
  } finally {
    await server.close();
  }
  return samples;
}

/** Fastest, median and slowest time to the first usable control. */
function spread(sample: CaseSamples): string {
  const times = sample.loads.map((load) => load.readyMs).sort((a, b) => a - b);
  return times.length === 0 ? 'n/a' : `${formatMs(times[0]!)}, ${formatMs(median(times))}, ${formatMs(times.at(-1)!)}`;
}

const medianOf = (sample: CaseSamples, pick: (load: Load) => number | undefined) =>
  median(sample.loads.map(pick).filter((value): value is number => value !== undefined));

/**
 * What the floor cases say of the time target: how long any script-loaded card form waits on this
 * network (the page, then a script), how much of the drop-in's time its bytes alone cost, and what
 * is left for compiling and running it; against the time the target allows.
 */
function floorReading(ours: number, adyen: number, plain: number, padded: number, measured: boolean): string {
  if (!measured) return 'The floor cases did not load often enough to split the time.';
  const allowed = adyen / 3;
  return (
    `Of pg-checkout's ${formatMs(ours)}: a plain field and button from a 0.2 kB script are usable after ${formatMs(plain)} ` +
    `(the page, then one script: two round trips); the same script padded to the entry's gzip size after ${formatMs(padded)}, ` +
    `so the entry's bytes cost ${formatMs(padded - plain)} on the wire and compiling and running it ${formatMs(ours - padded)} on the slowed CPU. ` +
    `Above that first floor, pg-checkout takes ${formatMs(ours - plain)} and Adyen ${formatMs(adyen - plain)} (${formatRatio((ours - plain) / (adyen - plain))}). ` +
    `The target allows ${formatMs(allowed)}: ` +
    (plain >= allowed
      ? 'less than the page with the 0.2 kB script needs, so no card form that a script puts on the page can meet it on this network, ' +
        'whatever its size or speed; the time above the floor is the part a card form\'s code decides.'
      : padded >= allowed
        ? 'less than a script of the entry\'s size takes to arrive at all, so no code of that size can meet it, however fast it runs; it needs fewer bytes and less work together.'
        : `${formatMs(allowed - padded)} beyond the bytes' arrival for all of the drop-in's work.`)
  );
}

export async function benchPhone(options: PhoneOptions, adyenVersion: string): Promise<SectionResult> {
  const samples = await runPhone(options);
  const [merchantPage, embedded, firstScreen, floorHtml, floorPlain, floorPadded, adyen] = samples as [
    CaseSamples,
    CaseSamples,
    CaseSamples,
    CaseSamples,
    CaseSamples,
    CaseSamples,
    CaseSamples,
  ];
  const rows = samples.map((sample) => [
    sample.testCase.label,
    `${sample.loads.length} / ${sample.failures.length}`,
    kB(medianOf(sample, (l) => l.jsBytesAtReady)),
    `${kB(medianOf(sample, (l) => l.jsBytes))} (${medianOf(sample, (l) => l.jsFiles)} files)`,
    kB(medianOf(sample, (l) => l.allBytes)),
    `${formatMs(medianOf(sample, (l) => l.readyMs))} (${sample.testCase.readyLabel})`,
    sample.testCase.later ? `${formatMs(medianOf(sample, (l) => l.laterMs))} (${sample.testCase.later.label})` : '',
  ]);
  const enough = (sample: CaseSamples) => sample.loads.length >= Math.min(3, options.loads);
  const ours = merchantPage;
  const ourJs = medianOf(ours, (l) => l.jsBytes);
  const ourReady = medianOf(ours, (l) => l.readyMs);
  const adyenJs = medianOf(adyen, (l) => l.jsBytes);
  const adyenReady = medianOf(adyen, (l) => l.readyMs);
  const embeddedJs = medianOf(embedded, (l) => l.jsBytes);
  const screenJsAtReady = medianOf(firstScreen, (l) => l.jsBytesAtReady);
  const screenReady = medianOf(firstScreen, (l) => l.readyMs);
  const targets: TargetRow[] = [
    {
      figure:
        'Phone and slow network: JavaScript on the wire before the customer can act, drop-in offering all four methods, English, ' +
        'served gzip, in its default card mode (`card-mode="merchant-page"`)',
      measured: enough(ours)
        ? `${kB(ourJs)}` + (enough(embedded) ? ` (with \`card-mode="embedded"\`: ${kB(embeddedJs)})` : '')
        : 'n/a',
      target: '≤ 15.0 kB',
      met: enough(ours) ? ourJs <= 15_000 : undefined,
      why: enough(ours)
        ? `${kB(ourJs - 15_000)} over. What loads before the customer acts is the entry file alone (${medianOf(ours, (l) => l.jsFiles)} ` +
          'file(s) on the wire: Lit, about 6 kB; the shared element code; the card form; the four elements\' classes); the ' +
          'contract\'s other shapes (about 2 kB) load with the customer\'s first request, the order\'s answer being read ' +
          'with its own shape in the entry. See Bundle size for the parts. The embedded card mode loads more, not less: the payment frame\'s code and ' +
          'the answers\' shapes come at once, to check the signed form and post it into the frame.'
        : `too few loads (${ours.failures[0] ?? 'no failure recorded'})`,
    },
    {
      figure:
        'Phone and slow network: time from navigation until the customer can type the card number and press Pay, drop-in ' +
        '(default card mode) / Adyen Card\'s card form (median)',
      measured:
        enough(ours) && enough(adyen)
          ? `${formatRatio(ourReady / adyenReady)} (${formatMs(ourReady)} vs ${formatMs(adyenReady)}; ` +
            `\`card-mode="embedded"\`: ${formatMs(medianOf(embedded, (l) => l.readyMs))} with a stand-in gateway page)`
          : 'n/a',
      target: '≤ 0.33×',
      met: enough(ours) && enough(adyen) ? ourReady / adyenReady <= 1 / 3 : undefined,
      why:
        'Adyen\'s figure is a lower bound: its card fields are iframes from Adyen\'s servers, which cannot load offline, so its time ' +
        'stops at its card form\'s DOM, and the true ratio is smaller than shown. ' +
        floorReading(ourReady, adyenReady, medianOf(floorPlain, (l) => l.readyMs), medianOf(floorPadded, (l) => l.readyMs), enough(floorPlain) && enough(floorPadded)),
    },
    {
      figure:
        'Phone and slow network: JavaScript on the wire before the customer can act, drop-in offering all four methods, English, ' +
        'its first screen written by the shop\'s server (`POST {endpoint}/first-screen`)',
      measured: enough(firstScreen)
        ? `${kB(screenJsAtReady)} when the card form can be used (the element's ${kB(medianOf(firstScreen, (l) => l.jsBytes))} arrive after, ` +
          `and take the form over at ${formatMs(medianOf(firstScreen, (l) => l.laterMs))})`
        : 'n/a',
      target: '≤ 15.0 kB',
      met: enough(firstScreen) ? screenJsAtReady <= 15_000 : undefined,
      why: enough(firstScreen)
        ? `${kB(screenJsAtReady - 15_000)} over: part of the element's script had arrived before the page's form could be used.`
        : `too few loads (${firstScreen.failures[0] ?? 'no failure recorded'})`,
    },
    {
      figure:
        'Phone and slow network: time from navigation until the customer can type the card number and press Pay, drop-in with ' +
        'the first screen written by the server / Adyen Card\'s card form (median)',
      measured:
        enough(firstScreen) && enough(adyen)
          ? `${formatRatio(screenReady / adyenReady)} (${formatMs(screenReady)} vs ${formatMs(adyenReady)})`
          : 'n/a',
      target: '≤ 0.33×',
      met: enough(firstScreen) && enough(adyen) ? screenReady / adyenReady <= 1 / 3 : undefined,
      why:
        'The form is in the page\'s HTML, in the element\'s declarative shadow root: usable once the page is parsed and painted, ' +
        'with no script; it pays without one (the card posted to the gateway, never to the shop). ' +
        (enough(floorHtml)
          ? `Its HTML had arrived after ${formatMs(medianOf(firstScreen, (l) => l.htmlMs))}; the rest is the first paint of a page on the slowed CPU ` +
            `in a new browser: a plain field and button in the HTML of a page with no script at all are painted after ` +
            `${formatMs(medianOf(floorHtml, (l) => l.readyMs))}, the floor of any card form here, against the target's ` +
            `${formatMs(adyenReady / 3)}. That first paint varies widely from one cold load to the next (the loads' spread is in the notes). `
          : '') +
        'Adyen\'s figure is a lower bound, as above.',
    },
    {
      figure: 'Phone and slow network: JavaScript on the wire before the customer can act, drop-in (default card mode) / Adyen Card',
      measured: enough(ours) && enough(adyen) ? `${formatRatio(ourJs / adyenJs)} (${kB(ourJs)} vs ${kB(adyenJs)})` : 'n/a',
      target: '≤ 0.25× (the size target)',
      met: enough(ours) && enough(adyen) ? ourJs / adyenJs <= 0.25 : undefined,
      why: 'Adyen\'s bytes are a lower bound too: its secured card fields (iframes and their scripts, from Adyen\'s servers) cannot load offline.',
    },
  ];
  const notes = [
    `The phone: Chromium's CPU throttling at ${PHONE.cpuSlowdown}× (\`Emulation.setCPUThrottlingRate\`) on a 412 × 915 mobile viewport. ` +
      `The network: \`Network.emulateNetworkConditions\` with ${PHONE.latencyMs} ms latency, ${PHONE.downloadBitsPerSecond / 1e6} Mbit/s down, ` +
      `${PHONE.uploadBitsPerSecond / 1e3} kbit/s up; cache disabled; every load a new browser with a fresh \`--user-data-dir\`.`,
    'Files are served gzip -9 by a loopback `node:http` server (brotli would be about 10 % smaller); the endpoint\'s answers come ' +
      'from a stub (the benchmark order; for the embedded mode a signed form whose action is a stand-in for the gateway\'s card page). ' +
      'Bytes are Chromium\'s `encodedDataLength` (compressed body and headers) summed once the page had no request in flight for ' +
      '500 ms after the later moment, with no customer action: "JS" counts responses of type Script. "kB" here is 1000 bytes.',
    'Times run from navigation start (`performance.now()` in the page, checked once per frame) to the moment named.',
    `Adyen Web ${adyenVersion}: the same page as the first-render section (core + Card and its CSS in one build). Its card ` +
      'number, expiry and security code are iframes served by Adyen, which this machine cannot reach: **its figures are lower ' +
      'bounds**, both the bytes (its iframes\' scripts are not counted) and the time (its card fields never become usable here).',
    'The floor cases load the same page template with a script that writes a plain card number field and a button (no ' +
      'framework, no check, no endpoint request), once as it is and once followed by a comment of random text that makes the ' +
      'file as large, compressed, as the drop-in\'s entry: they split the drop-in\'s time into what the network takes and what ' +
      'its code takes. They are not checkouts.',
    'The embedded mode\'s card page is a stand-in (a small HTML form, no script) served from loopback: the real gateway page\'s ' +
      'bytes and time are not known offline, so that column is a lower bound too. What the shop\'s page loads is measured exactly.',
    `The first paint's spread over the loads (fastest, median, slowest): the first screen ${spread(firstScreen)}; ` +
      `the plain form in the HTML with no script ${spread(floorHtml)}; the 0.2 kB script's form ${spread(floorPlain)}.`,
    ...samples.flatMap((sample) =>
      sample.failures.slice(0, 1).map((failure) => `${sample.testCase.label}: ${sample.failures.length} failed loads, e.g. ${failure}`),
    ),
  ];
  return {
    title: 'Phone and slow network',
    method:
      `${options.loads} cold loads per case (cases interleaved) in Debian's headless Chromium, of the bench page template with the ` +
      'published bundle folder\'s split (pg-checkout) or Adyen\'s build; medians.',
    tables: [
      {
        headers: ['Case', 'loads ok / failed', 'JS on the wire when the first control could be used', 'JS on the wire before the customer acts (page idle)', 'all bytes', 'first usable control', 'later'],
        rows,
      },
    ],
    targets,
    notes,
  };
}
