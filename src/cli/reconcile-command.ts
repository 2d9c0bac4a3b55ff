/**
 * `pg-checkout reconcile`: one round of the reconciler, for a shop that mounts the endpoint in its
 * own Node process (with a store from `openStore`) and runs this from cron. It asks CHECK_STATUS
 * about every watched payment that is due, records each change found in the store, and, with
 * `PG_RESULT_WEBHOOK_URL`, delivers what is due to the shop. `--list` shows the watched payments.
 * `pg-checkout serve` runs the same reconciler by itself: do not run both on one store. With
 * `PG_ORDER_URL`, a payment found holding money is checked against the order as the shop's order
 * lookup answers it now, not only against the amount the watch kept.
 */
import { parseArgs } from 'node:util';
import type { VerifiedResult } from '../core/verified-result.ts';
import { createJsonLogger, silentLogger } from '../log/logger.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { createHttpOrderSource } from '../server/order-source.ts';
import { createReconciler, orderLookupOf } from '../server/reconciler.ts';
import { createResultWebhook } from '../server/result-webhook.ts';
import { recordAndReport } from '../server/results.ts';
import { ShopAvailability } from '../server/shop-client.ts';
import type { PaymentWatch } from '../store/store.ts';
import { clientFromEnv, CliConfigError, printJson } from './client-env.ts';
import { EXIT, type CliCommand } from './command.ts';
import { storeFromEnv } from './store-env.ts';

const USAGE = `Usage: pg-checkout reconcile [--list] [--json] [--verbose]

Asks the gateway (CHECK_STATUS) about every watched payment that is due: bills not yet paid,
authorizations not yet captured or voided, 3-D Secure checks and payments left under way, money
calls whose answer was lost. Each change found is recorded once in the store and, with
PG_RESULT_WEBHOOK_URL and PG_HOOK_SECRET, delivered to the shop with every other result that is due.
With PG_ORDER_URL, a payment found paid is checked against the order as the shop answers it now.
Run it from cron (every minute, say) beside an endpoint you mount yourself; pg-checkout serve runs
it by itself. The store and the gateway come from the same PG_* variables as serve.
  --list      show the watched payments instead, and ask nothing
  --json      print the summary (or the list) as JSON
  --verbose   write structured logs to stderr
Exit 0 when the round ran (whatever it found), 3 when the configuration or the store is unusable,
8 when the gateway answered none of the questions asked.`;

function describeWatch(watch: PaymentWatch): string {
  const due = watch.due_at ? `, due ${watch.due_at}` : '';
  const error = watch.last_error ? `, last: ${watch.last_error}` : '';
  return `${watch.merchant_reference}  ${watch.kind}  ${watch.last_state}  next ${watch.next_check_at}${due}, until ${watch.expires_at}; ${watch.checks} asked${error}`;
}

export const reconcileCommand: CliCommand = {
  summary: 'ask the gateway about payments that finish after the customer left, and report the changes (for cron)',
  usage: USAGE,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { list: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
      strict: true,
    });
    const store = await storeFromEnv(io, { create: false });
    try {
      // Listing reads the store only: no gateway settings needed.
      if (values.list) {
        const watches = await store.watches.list({ active: true, limit: 1000 });
        if (values.json) printJson(io, watches);
        else io.stdout.write(watches.length === 0 ? 'no payment is being watched\n' : `${watches.map(describeWatch).join('\n')}\n`);
        return EXIT.success;
      }
      let config: ReturnType<typeof backOfficeConfigFromEnv>;
      try {
        config = backOfficeConfigFromEnv(io.env);
      } catch (error) {
        throw new CliConfigError((error as Error).message);
      }
      const log = values.verbose ? createJsonLogger((line) => io.stderr.write(`${line}\n`)) : silentLogger;
      const now = () => new Date();
      const reported: VerifiedResult[] = [];
      const availability = new ShopAvailability(log, now);
      // The order as the shop has it now, when it has an order lookup (else the watch's amount is compared).
      const orderOf =
        config.orderUrl === undefined || config.hookSecret === undefined
          ? undefined
          : orderLookupOf(
              createHttpOrderSource({
                url: config.orderUrl,
                secret: config.hookSecret,
                timeoutMs: config.hookTimeoutMs,
                fetch: globalThis.fetch.bind(globalThis),
                now,
                orderMemory: store.orders,
                log,
                availability,
              }),
            );
      const reconciler = createReconciler({
        store,
        gateway: clientFromEnv(io, { verbose: values.verbose }),
        log,
        now,
        settings: { intervalSeconds: config.reconcileIntervalSeconds, authorizationHoldDays: config.authorizationHoldDays },
        ...(orderOf === undefined ? {} : { orderOf }),
        report: async (result) => {
          const recorded = await recordAndReport(result, { ledger: store.results, onResult: undefined, log, now });
          if (recorded.first) reported.push(result);
        },
      });
      const summary = await reconciler.runDue();
      if (config.resultWebhookUrl !== undefined && config.hookSecret !== undefined) {
        const webhook = createResultWebhook({
          url: config.resultWebhookUrl,
          secret: config.hookSecret,
          timeoutMs: config.hookTimeoutMs,
          fetch: globalThis.fetch.bind(globalThis),
          now,
          results: store.results,
          log,
          availability,
        });
        await webhook.deliverDue();
      }
      const waiting = (await store.results.list({ state: 'pending', limit: 500 })).length;
      if (values.json) {
        printJson(io, { ...summary, results: reported.map((result) => result.idempotency_key), waiting_for_shop: waiting });
      } else {
        io.stdout.write(`asked ${summary.asked}, reported ${summary.reported}, watches ended ${summary.ended}, unanswered ${summary.failed}; ${waiting} result(s) waiting for the shop\n`);
        for (const result of reported) io.stdout.write(`  ${result.idempotency_key}  ${result.outcome} (${result.order_state})\n`);
      }
      return summary.asked > 0 && summary.failed === summary.asked ? EXIT.unreachable : EXIT.success;
    } finally {
      await store.close();
    }
  },
};
