/**
 * `npm run bench`: measures pg-checkout against Adyen Web and Braintree Drop-in in one run and
 * writes `bench/results.md`. Sections: bundle size, signer, merchant endpoint under load, the
 * durable store (records per second, and the return route with each store), first render and
 * installments re-render in headless Chromium, and the drop-in beside Adyen on an emulated phone
 * over a slow mobile network (each load in a new Chromium of its own). Every loop is bounded in count and time, and all
 * traffic stays on 127.0.0.1.
 *
 *   npm run bench                        full run, writes bench/results.md
 *   npm run bench -- --quick             short loops, writes bench/results.quick.md (not committed)
 *   npm run bench -- --only=size,signer  some sections, writes bench/results.partial.md (not committed)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR } from './build.ts';
import { launchBrowser } from './browser.ts';
import { benchEndpoint } from './endpoint.ts';
import { currentLoad, describeEnvironment, packageVersion } from './environment.ts';
import { benchFirstRender } from './first-render.ts';
import { benchInstallments } from './installments.ts';
import { benchPhone } from './phone.ts';
import { renderResults, type SectionResult } from './report.ts';
import { benchSigner } from './signer.ts';
import { measureSchemaCosts, schemaCostTables } from './schema-cost.ts';
import { measureAll, sizeSection } from './size.ts';
import { benchStore } from './store.ts';

const SECTIONS = ['size', 'signer', 'endpoint', 'store', 'first-render', 'phone', 'installments'] as const;
type Section = (typeof SECTIONS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

const only = values.only?.split(',').map((name) => name.trim()) ?? [...SECTIONS];
for (const name of only) {
  if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`unknown section "${name}"; choose from ${SECTIONS.join(', ')}`);
}
const wanted = (section: Section) => only.includes(section);
const quick = values.quick;
const complete = !quick && SECTIONS.every(wanted);

const settings = {
  firstRender: { loads: quick ? 5 : 30, timeoutMs: 30_000 },
  phone: { loads: quick ? 2 : 21, timeoutMs: 60_000 },
  installments: { loads: quick ? 1 : 5, changesPerLoad: quick ? 10 : 25, timeoutMs: 60_000 },
  signer: { durationMs: quick ? 300 : 2000, maxIterations: 5_000_000 },
  endpoint: { durationSeconds: quick ? 2 : 5, warmUpSeconds: 1, rounds: quick ? 1 : 2, connections: 10 },
  store: {
    record: { durationMs: quick ? 400 : 2000, maxRecords: 20_000, rounds: 3, concurrency: 10 },
    http: { durationSeconds: quick ? 2 : 5, warmUpSeconds: 1, rounds: quick ? 1 : 2, connections: 10 },
  },
};

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function main(): Promise<void> {
  const loadAtStart = currentLoad();
  const sections: SectionResult[] = [];
  const adyenVersion = packageVersion('@adyen/adyen-web');
  let chromiumVersion = 'not launched';

  if (wanted('size')) {
    log('bundle size: building every entry');
    const size = sizeSection(await measureAll(), { adyen: adyenVersion, braintree: packageVersion('braintree-web-drop-in') });
    log('bundle size: what each shape of the contract costs');
    sections.push({ ...size, tables: [...size.tables, ...schemaCostTables(await measureSchemaCosts())] });
  }
  if (wanted('signer')) {
    log('signer');
    sections.push(await benchSigner(settings.signer));
  }
  if (wanted('endpoint')) {
    log('merchant endpoint under load');
    sections.push(await benchEndpoint(settings.endpoint));
  }
  if (wanted('store')) {
    log('durable store: records per second, and the return route with each store');
    sections.push(await benchStore(settings.store, log));
  }
  if (wanted('first-render') || wanted('phone') || wanted('installments')) {
    const browser = await launchBrowser();
    chromiumVersion = browser.version();
    try {
      if (wanted('first-render')) {
        log(`first render: ${settings.firstRender.loads} cold loads per case`);
        sections.push(await benchFirstRender(browser, settings.firstRender, adyenVersion));
      }
      if (wanted('phone')) {
        log(`phone and slow network: ${settings.phone.loads} cold loads per case, a new browser each`);
        sections.push(await benchPhone(settings.phone, adyenVersion));
      }
      if (wanted('installments')) {
        log('installments re-render');
        sections.push(await benchInstallments(browser, settings.installments));
      }
    } finally {
      await browser.close();
    }
  }

  const environment = describeEnvironment([['Chromium (headless, /usr/bin/chromium)', chromiumVersion]], loadAtStart);
  const target = complete
    ? join(BENCH_DIR, 'results.md')
    : join(BENCH_DIR, quick ? 'results.quick.md' : 'results.partial.md');
  await writeFile(target, renderResults(environment, sections, { complete }));
  log(`wrote ${target}`);
  for (const row of sections.flatMap((section) => section.targets)) {
    log(`${row.met === undefined ? 'n/a ' : row.met ? 'met ' : 'MISS'} ${row.figure}: ${row.measured} (target ${row.target})`);
  }
}

await main();
