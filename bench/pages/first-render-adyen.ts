/**
 * Adyen Web's Card component mounted in the benchmark page template, with a fake client key and a
 * local payment-methods response so that nothing but its secured-field iframes needs the network.
 * "Ready" is the card form's DOM with its first field present; Adyen's own "fields ready" callback
 * (`onConfigSuccess`) is recorded too when it fires, which needs its CDN-hosted iframes.
 */
import './evaluation-start.ts';
import '@adyen/adyen-web/styles/adyen.css';
import { AdyenCheckout, Card } from '@adyen/adyen-web';
import { afterNextPaint, evaluationStart, report, reportFailure, sinceEvaluationStart, waitFor, type FirstRenderResult } from './probe.ts';

const SECURED_FIELDS_WAIT_MS = 3000;

async function main(): Promise<void> {
  let configSuccessMs: number | undefined;
  const checkout = await AdyenCheckout({
    clientKey: 'test_BENCHMARKBENCHMARKBENCHMARK00',
    environment: 'test',
    locale: 'en-US',
    countryCode: 'AE',
    amount: { value: 10000, currency: 'AED' },
    paymentMethodsResponse: { paymentMethods: [{ type: 'scheme', name: 'Cards', brands: ['visa', 'mc'] }] },
    analytics: { enabled: false },
    onSubmit: () => undefined,
    onAdditionalDetails: () => undefined,
  });
  new Card(checkout, {
    onConfigSuccess: () => {
      configSuccessMs = sinceEvaluationStart();
    },
  }).mount('#app');
  await waitFor(() => document.querySelector('#app .adyen-checkout__card-input [data-cse="encryptedCardNumber"]'), 10_000, 'the Adyen card form');
  const readyMs = sinceEvaluationStart();
  await afterNextPaint();
  const paintedMs = sinceEvaluationStart();
  // Give the secured fields a bounded chance to load, to say honestly whether they ever do.
  await waitFor(() => configSuccessMs !== undefined, SECURED_FIELDS_WAIT_MS, 'onConfigSuccess').catch(() => undefined);
  const result: FirstRenderResult = {
    ok: true,
    readyMs,
    paintedMs,
    evaluationStartMs: evaluationStart(),
    extra: {
      securedFieldsReady: configSuccessMs !== undefined,
      ...(configSuccessMs !== undefined ? { configSuccessMs } : {}),
      iframes: document.querySelectorAll('#app iframe').length,
      spinner: document.querySelector('#app .adyen-checkout__spinner') !== null,
    },
  };
  report(result);
}

main().catch(reportFailure);
