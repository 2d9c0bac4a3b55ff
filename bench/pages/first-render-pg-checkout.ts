/**
 * `<pg-checkout mode="merchant-page">` (the card form on the merchant's page) in the benchmark
 * page template. "Ready" is the first update done with the card number field present and
 * enabled; the order's amount, fetched from the loopback stub, is not waited for.
 */
import './evaluation-start.ts';
import { PgCheckout } from '../../src/components/pg-checkout/pg-checkout.ts';
import { defineElement } from '../../src/components/shared/define.ts';
import { afterNextPaint, evaluationStart, report, reportFailure, sinceEvaluationStart, waitFor, type FirstRenderResult } from './probe.ts';

async function main(): Promise<void> {
  defineElement('pg-checkout', PgCheckout);
  const checkout = document.querySelector('pg-checkout');
  if (!(checkout instanceof PgCheckout)) throw new Error('no upgraded <pg-checkout> in the page');
  await checkout.updateComplete;
  await waitFor(
    () => checkout.renderRoot.querySelector<HTMLInputElement>('input[autocomplete="cc-number"]:not([disabled])'),
    10_000,
    'the card number field',
  );
  const readyMs = sinceEvaluationStart();
  await afterNextPaint();
  const paintedMs = sinceEvaluationStart();
  const result: FirstRenderResult = { ok: true, readyMs, paintedMs, evaluationStartMs: evaluationStart() };
  report(result);
}

main().catch(reportFailure);
