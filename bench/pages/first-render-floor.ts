/**
 * The first-render floor: the same page template and probe, with a script that writes a plain card
 * number field and Pay button (no framework, no check, no endpoint request). What any card form
 * costs from the mark to painted on this machine, whatever its code: fetching one small module,
 * then two animation frames.
 */
import './evaluation-start.ts';
import { afterNextPaint, evaluationStart, report, reportFailure, sinceEvaluationStart, type FirstRenderResult } from './probe.ts';

function main(): Promise<void> {
  const app = document.querySelector('#app');
  if (!app) throw new Error('no #app in the page');
  app.innerHTML = '<label>Card number <input autocomplete="cc-number" inputmode="numeric"></label><button>Pay</button>';
  const readyMs = sinceEvaluationStart();
  return afterNextPaint().then(() => {
    const result: FirstRenderResult = { ok: true, readyMs, paintedMs: sinceEvaluationStart(), evaluationStartMs: evaluationStart() };
    report(result);
  });
}

main().catch(reportFailure);
