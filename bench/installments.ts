/**
 * Installments re-render: `<pg-installments>` in headless Chromium with 50 issuers × 10 plans,
 * timed on each change of the card's first digits (see `pages/installments-rerender.ts`). The
 * plans come from a loopback stub of the endpoint's `/installment-plans` route.
 */
import type { Browser } from 'playwright-core';
import { buildEntry, entryPath, OUT_DIR } from './build.ts';
import { loadCold } from './browser.ts';
import { endpointStub, STUB_PREFIX } from './endpoint-stub.ts';
import { ISSUER_COUNT, PLANS_ORDER, PLANS_PER_ISSUER } from './installments-data.ts';
import { writePage } from './page-template.ts';
import type { RerenderResult } from './pages/installments-rerender.ts';
import type { SectionResult, TargetRow } from './report.ts';
import { startStaticServer } from './static-server.ts';
import { formatMs, median, percentile } from './stats.ts';

export interface InstallmentsOptions {
  readonly loads: number;
  readonly changesPerLoad: number;
  readonly timeoutMs: number;
}

const BUDGET_MS = 16;

interface ViewSamples {
  readonly view: 'table' | 'dropdown';
  readonly update: number[];
  readonly layout: number[];
  readonly failures: string[];
  plansRendered: number;
  issuersRendered: number;
}

export async function benchInstallments(browser: Browser, options: InstallmentsOptions): Promise<SectionResult> {
  const built = await buildEntry('installments-rerender', entryPath('pages/installments-rerender.ts'));
  const views: ViewSamples[] = [];
  const pages: string[] = [];
  for (const view of ['table', 'dropdown'] as const) {
    const markup =
      `<pg-installments endpoint="${STUB_PREFIX}" merchant-reference="${PLANS_ORDER.merchant_reference}" ` +
      `card-source="host" completion="none" plans-view="${view}"></pg-installments>`;
    pages.push(await writePage({ name: `installments-${view}`, built, markup }));
    views.push({ view, update: [], layout: [], failures: [], plansRendered: 0, issuersRendered: 0 });
  }
  const server = await startStaticServer({ root: OUT_DIR, api: { prefix: STUB_PREFIX, listener: endpointStub() } });
  try {
    for (let load = 0; load < options.loads; load++) {
      for (const [index, samples] of views.entries()) {
        try {
          const url = `${server.origin}${pages[index]}?changes=${options.changesPerLoad}`;
          const { result } = await loadCold<RerenderResult>(browser, url, options.timeoutMs);
          if (!result.ok) {
            samples.failures.push(result.detail ?? 'failed');
            continue;
          }
          samples.update.push(...result.updateMs);
          samples.layout.push(...result.layoutMs);
          samples.plansRendered = result.plansRendered;
          samples.issuersRendered = result.issuersRendered;
        } catch (error) {
          samples.failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }
  } finally {
    await server.close();
  }

  const table = views[0]!;
  const tableMedian = median(table.update);
  const measurable = table.update.length >= 20;
  const target: TargetRow = {
    figure: `Installments re-render on a BIN change, ${ISSUER_COUNT} issuers × ${PLANS_PER_ISSUER} plans (table view), median to updateComplete`,
    measured: measurable ? formatMs(tableMedian) : 'n/a',
    target: `≤ ${BUDGET_MS} ms`,
    met: measurable ? tableMedian <= BUDGET_MS : undefined,
    why: measurable
      ? 'Each change re-renders the whole issuer list and the chosen issuer’s plans (quotes come precomputed from willUpdate).'
      : `only ${table.update.length} samples, at least 20 needed` + (table.failures[0] ? ` (${table.failures[0]})` : ''),
  };
  return {
    title: 'Installments re-render',
    method:
      `${options.loads} cold page loads per view, each changing the BIN ${options.changesPerLoad} times after 3 unmeasured changes; ` +
      'each change selects a different issuer, checked in the rendered DOM. "updateComplete" is the time from setting ' +
      '`cardPrefix` to the element\'s `updateComplete`; "+ style and layout" also forces the browser to lay the result out. ' +
      'Two animation frames pass between changes so that each is painted before the next.',
    tables: [
      {
        headers: ['View', 'samples (failed loads)', 'issuers / plans in DOM', 'updateComplete median', 'p90', '+ style and layout, median', 'p90'],
        rows: views.map((v) => [
          `plans-view="${v.view}"`,
          `${v.update.length} (${v.failures.length})`,
          `${v.issuersRendered} / ${v.plansRendered}`,
          formatMs(median(v.update)),
          formatMs(percentile(v.update, 0.9)),
          formatMs(median(v.layout)),
          formatMs(percentile(v.layout, 0.9)),
        ]),
      },
    ],
    targets: [target],
    notes: [
      'The target is judged on the table view, which renders every plan as a row; the dropdown view is context.',
      'Paint itself is not timed: waiting for animation frames would measure the frame rate of headless Chromium (about 16.7 ms a frame), not the element.',
      ...views.flatMap((v) => v.failures.slice(0, 1).map((failure) => `A ${v.view}-view load failed: ${failure}`)),
    ],
  };
}
