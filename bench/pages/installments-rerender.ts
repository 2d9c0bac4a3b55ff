/**
 * `<pg-installments>` with the synthetic 50 × 10 plans (served by the benchmark's loopback stub),
 * the card's first digits coming from a host (`card-source="host"`): the page changes the BIN again
 * and again and times each re-render, from setting `cardPrefix` to `updateComplete`, then to a
 * forced style and layout of the result. A paint follows before the next change. Each change picks a different issuer, which the page checks in the rendered DOM.
 */
import { PgInstallments } from '../../src/components/pg-installments/pg-installments.ts';
import { defineElement } from '../../src/components/shared/define.ts';
import { issuerBin, issuerCode, ISSUER_COUNT } from '../installments-data.ts';
import { afterNextPaint, report, withTimeout } from './probe.ts';

export interface RerenderResult {
  readonly ok: boolean;
  readonly updateMs: number[];
  readonly layoutMs: number[];
  readonly plansRendered: number;
  readonly issuersRendered: number;
  readonly detail?: string;
}

const params = new URLSearchParams(location.search);
const WARM_UP = 3;
const CHANGES = Number(params.get('changes') ?? '25');

async function main(): Promise<void> {
  const element = document.querySelector('pg-installments');
  if (!element) throw new Error('no <pg-installments> in the page');
  const loaded = new Promise<void>((resolve) => element.addEventListener('pg-plans-load', () => resolve(), { once: true }));
  defineElement('pg-installments', PgInstallments);
  const installments = element as PgInstallments;
  await withTimeout(loaded, 10_000, 'pg-plans-load');
  await installments.updateComplete;

  const updateMs: number[] = [];
  const layoutMs: number[] = [];
  for (let change = 0; change < WARM_UP + CHANGES; change++) {
    // Stride 7 over 50 issuers: every change lands on another issuer, spread over the list.
    const index = ((change + 1) * 7) % ISSUER_COUNT;
    const start = performance.now();
    installments.cardPrefix = `${issuerBin(index)}12`;
    await installments.updateComplete;
    const updated = performance.now();
    // Reading geometry forces style recalculation and layout of what was just rendered.
    installments.renderRoot.querySelector('.installments-container')?.getBoundingClientRect();
    const laidOut = performance.now();
    await afterNextPaint();
    const selected = installments.renderRoot.querySelector<HTMLInputElement>('.issuer.selected input[name="issuer"]');
    if (selected?.value !== issuerCode(index)) {
      throw new Error(`BIN ${issuerBin(index)} should select ${issuerCode(index)}, the DOM shows ${selected?.value ?? 'none'}`);
    }
    if (change >= WARM_UP) {
      updateMs.push(updated - start);
      layoutMs.push(laidOut - start);
    }
  }
  const result: RerenderResult = {
    ok: true,
    updateMs,
    layoutMs,
    plansRendered: installments.renderRoot.querySelectorAll('input[name="plan"], #plan option[value]:not([value=""])').length,
    issuersRendered: installments.renderRoot.querySelectorAll('input[name="issuer"]').length,
  };
  report(result);
}

main().catch((error: unknown) => {
  const result: RerenderResult = {
    ok: false,
    updateMs: [],
    layoutMs: [],
    plansRendered: 0,
    issuersRendered: 0,
    detail: error instanceof Error ? error.message : String(error),
  };
  report(result);
});
