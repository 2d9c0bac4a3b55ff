/**
 * `pg-checkout status`, `capture`, `refund` and `void`: an order's status and the three operations
 * that move its money. Amounts are read and shown in major units with the currency; the money
 * commands say what they will do and ask before doing it, unless `--yes`.
 */
import { parseArgs } from 'node:util';
import { currencyExponent } from '../core/amounts.ts';
import { capturableAmount, isVoidable, refundableAmount, summarizeOrder, type OrderStatus } from '../core/order-status.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { StatusResult } from '../gateway/orders.ts';
import { captureApplied, refundApplied, voidApplied, type Judge, type OrderQuery } from '../gateway/reconcile.ts';
import { refusedByClient, type GatewayResult } from '../gateway/results.ts';
import {
  amountOf,
  amountsOf,
  clientFromEnv,
  COMMON_OPTIONS,
  COMMON_USAGE,
  confirm,
  currencyNote,
  currencyOf,
  failed,
  money,
  printJson,
  refuseNegativeAmountArgument,
} from './client-env.ts';
import { EXIT, EXIT_CODES_HELP, exitCodeOf, type CliCommand, type Io } from './command.ts';
import { CliError } from './input.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { DEFAULT_GATEWAY_REFERENCE_FIELD } from '../core/wire-names.ts';
import { recordedCurrency, tellShopOfMove, watchBeforeMove, type WatchedBeforeMove } from './store-env.ts';

const ORDER_OPTIONS = {
  ...COMMON_OPTIONS,
  reference: { type: 'string' },
  'svc-id': { type: 'string' },
  // The live gateway's name of the same id (the back-office shows it as the FORT id).
  'fort-id': { type: 'string' },
  currency: { type: 'string' },
} as const;

/** What an operator reads when CHECK_STATUS holds nothing under the reference. */
const NO_ORDER = 'no order with this reference at the gateway';

/** How --svc-id reads in every command's usage. */
const GATEWAY_ID_USAGE = `  --svc-id ID       the gateway's id of the order (also --fort-id ID); sent under the wire name
                    PG_GATEWAY_REFERENCE_FIELD sets: svc_id (default) or fort_id`;

type ReferenceValues = { reference?: string | undefined; 'svc-id'?: string | undefined; 'fort-id'?: string | undefined };

function referenceOf(values: ReferenceValues): { merchant_reference?: string; svc_id?: string } {
  const svcId = values['svc-id'];
  const fortId = values['fort-id'];
  if (svcId && fortId && svcId !== fortId) throw new CliError('--svc-id and --fort-id name the same id: give one of them');
  const gatewayId = svcId || fortId;
  if (!values.reference && !gatewayId) throw new CliError('--reference is required (the order’s merchant_reference; or --svc-id)');
  return {
    ...(values.reference ? { merchant_reference: values.reference } : {}),
    ...(gatewayId ? { svc_id: gatewayId } : {}),
  };
}

/** "3 decimal places" for KWD, "no decimal places" for JPY. */
function decimalPlaces(currency: string): string {
  const exponent = currencyExponent(currency);
  return exponent === 0 ? 'no decimal places' : `${exponent} decimal place${exponent === 1 ? '' : 's'}`;
}

/**
 * A currency other than the one the service recorded for the order is refused before anything is
 * sent: with another exponent every amount would be read ten or a hundred times off, and the
 * gateway refuses it anyway (00013). Without a record the gateway's own check is what remains.
 */
function refuseOtherCurrency(given: string | undefined, currency: string, reference: string, recorded: string | undefined): void {
  if (recorded === undefined || recorded === currency) return;
  const option = given !== undefined ? '--currency' : 'PG_CURRENCY';
  throw new CliError(
    `${option} ${currency} (${decimalPlaces(currency)}) is not the currency of order ${reference}: the service recorded it in ${recorded} (${decimalPlaces(recorded)}); nothing was sent`,
  );
}

/**
 * The currency to show an order's amounts in: `--currency`, else the one the service recorded for
 * the order, else `PG_CURRENCY`. A shop's usual currency in `PG_CURRENCY` must not show a SAR order
 * as "EGP 199.00", nor a KWD order ten times off; a `--currency` the service knows to be wrong is
 * refused, nothing sent.
 */
async function shownCurrency(io: Io, given: string | undefined, reference: string | undefined): Promise<string | undefined> {
  const recorded = reference ? await recordedCurrency(io, reference) : undefined;
  if (given === undefined && recorded !== undefined) return recorded;
  const currency = currencyOf(io, given, undefined);
  if (given !== undefined && currency !== undefined && reference) refuseOtherCurrency(given, currency, reference, recorded);
  return currency;
}

/** How an order stands, in words: "authorized", "partly captured (EGP 78.48 left to capture)". */
function standingOf(order: OrderStatus, currency: string | undefined): string {
  const summary = summarizeOrder(order);
  if (summary.standing === 'partially_captured') return `partly captured (${money(summary.capturable, currency)} left to capture)`;
  return summary.standing.replace('_', ' ');
}

/** Why authorized money is left that nothing can move, when some is. */
function uncapturableLine(order: OrderStatus, currency: string | undefined): string {
  const { uncapturable } = summarizeOrder(order);
  if (!uncapturable) return '';
  return `  ${money(uncapturable.amount, currency)} authorized and not captured: a refunded order cannot be captured or voided\n`;
}

/** The gateway's name of its order reference, as the account is set (svc_id, or fort_id as live). */
function referenceFieldName(io: Io): string {
  return backOfficeConfigFromEnv(io.env).gatewayReferenceField ?? DEFAULT_GATEWAY_REFERENCE_FIELD;
}

function orderLines(io: Io, order: OrderStatus, currency: string | undefined, reference: string): string {
  const id = order.svc_id ? ` (${referenceFieldName(io)} ${order.svc_id})` : '';
  const note = currency === undefined ? '\n  amounts in minor units: pass --currency (or set PG_CURRENCY) to show them in major units' : '';
  return (
    `Order ${reference}${id}: ${standingOf(order, currency)}\n` +
    `  authorized  ${money(order.authorized_amount, currency)}\n` +
    `  captured    ${money(order.captured_amount, currency)}\n` +
    `  refunded    ${money(order.refunded_amount, currency)}${note}\n` +
    uncapturableLine(order, currency)
  );
}

export const statusCommand: CliCommand = {
  summary: "an order's state and its authorized, captured and refunded amounts (CHECK_STATUS)",
  usage: `Usage: pg-checkout status --reference R [--svc-id ID] [--currency C] [--third-party] [--json]

Asks the gateway where the order stands: its state and the authorized, captured and refunded
amounts, shown in major units when the currency is known.
  --reference R     the order's merchant_reference (or --svc-id, the gateway's id)
${GATEWAY_ID_USAGE}
  --currency C      the order's currency, for the amounts (default: the one the service recorded
                    for the order in its store, else PG_CURRENCY)
  --third-party     ask for the processor's and acquirer's response codes too
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: { ...ORDER_OPTIONS, 'third-party': { type: 'boolean', default: false } }, strict: true });
    const query = referenceOf(values);
    const currency = await shownCurrency(io, values.currency, query.merchant_reference);
    const client = clientFromEnv(io, values);
    const status = await client.checkStatus({ ...query, ...(values['third-party'] ? { return_third_party_response_codes: true } : {}) });
    if (values.json) printJson(io, status);
    if (status.order?.state === 'not_found') {
      // Both named, and 00007: the gateway id is another order's, or the reference is (docs/decisions.md).
      const neither = query.merchant_reference !== undefined && query.svc_id !== undefined && status.response_code === '00007';
      const said = neither ? 'the reference and the gateway id do not name the same order at the gateway' : NO_ORDER;
      if (!values.json) io.stderr.write(`pg-checkout status: ${said}${status.response_code ? ` (${status.response_code})` : ''}\n`);
      return EXIT.refused;
    }
    if (status.outcome !== 'success' || !status.order) return values.json ? exitCodeOf(status.outcome) : failed(io, 'status', status);
    if (!values.json) {
      io.stdout.write(orderLines(io, status.order, currency, status.answer?.merchant_reference ?? query.merchant_reference ?? ''));
      const last = status.answer;
      if (last?.transaction_code) io.stdout.write(`  last operation: ${last.transaction_code} ${last.transaction_message ?? ''} (status ${last.transaction_status ?? ''})\n`);
      if (last?.processor_response_code) io.stdout.write(`  processor ${last.processor_response_code}, acquirer ${last.acquirer_response_code ?? ''}\n`);
    }
    return EXIT.success;
  },
};

/**
 * The order read after a move through the command's client, once however often asked: shown to the
 * operator and recorded for the shop from the same reading. Undefined when it cannot be read (a
 * failure to read is not the move's).
 */
function readingAfter(client: GatewayClient, query: OrderQuery): () => Promise<StatusResult | undefined> {
  let reading: Promise<StatusResult | undefined> | undefined;
  return () => (reading ??= client.checkStatus(query).catch(() => undefined));
}

/** After a money operation: the order as it now stands, when it could be read. */
function showOrderAfter(io: Io, status: StatusResult | undefined, query: OrderQuery, currency: string | undefined): void {
  if (status === undefined) io.stderr.write('  (the order’s status could not be read just now: pg-checkout status)\n');
  else if (status.order) io.stdout.write(orderLines(io, status.order, currency, status.answer?.merchant_reference ?? query.merchant_reference ?? ''));
}

/** A money command's move as it is reported: to the operator, and to the shop (`tellShopOfMove`). */
interface MoveReport {
  readonly command: 'capture' | 'refund' | 'void';
  readonly result: GatewayResult<unknown>;
  /** What the operator reads once the gateway confirmed it ("Captured EGP 12.50"). */
  readonly done: string;
  readonly query: OrderQuery;
  readonly currency: string | undefined;
  /** The order as the command read it before the move. */
  readonly before: OrderStatus | undefined;
  /** Whether a reading shows the move: the client's own test for a lost answer. */
  readonly shows: Judge;
  readonly json: boolean;
  /** The watch written before the call was sent (`watchBeforeMove`), ended once the move is recorded. */
  readonly watched: WatchedBeforeMove | undefined;
}

async function reportMoneyResult(io: Io, client: GatewayClient, report: MoveReport): Promise<number> {
  const { command, result, query, currency } = report;
  const readAfter = readingAfter(client, query);
  const tellShop = () =>
    tellShopOfMove(io, {
      command,
      reference: query.merchant_reference,
      result,
      before: report.before,
      shows: report.shows,
      currency,
      language: client.language,
      readAfter,
    }, report.watched);
  if (report.json) {
    printJson(io, result);
    await tellShop();
    return exitCodeOf(result.outcome);
  }
  if (result.outcome !== 'success') {
    const code = failed(io, command, result, currency);
    await tellShop();
    return code;
  }
  const settled = result.source === 'check_status' ? ` (the answer was lost: ${result.reason}; CHECK_STATUS shows it applied)` : '';
  io.stdout.write(`${report.done}: ${result.response_code} ${result.response_message}${settled}\n`);
  showOrderAfter(io, await readAfter(), query, currency);
  await tellShop();
  return EXIT.success;
}

/** A reading that can never show the move: without the order read before it, nothing tells it from an earlier one. */
const NEVER_SHOWN: Judge = () => undefined;

function moneyCommand(command: 'capture' | 'refund'): CliCommand {
  const capture = command === 'capture';
  const verb = capture ? 'Capture' : 'Refund';
  return {
    summary: capture
      ? 'capture an authorized order, in part (--amount) or the rest'
      : 'refund a captured order, in part (--amount) or the rest',
    usage: `Usage: pg-checkout ${command} --reference R [--amount A] [--currency C] [--yes] [--json]

${verb}s ${capture ? 'an authorized order' : 'a captured order'}: --amount in major units (12.50), or without it the rest
(${capture ? 'authorized less captured' : 'captured less refunded'}). The client reads the order first and refuses, sending nothing, an amount
beyond what it allows. It says what it will do and asks before doing it; it is never sent twice: an
answer lost on the way is settled with CHECK_STATUS (exit 7 when that cannot say).
  --reference R     the order's merchant_reference (or --svc-id)
${GATEWAY_ID_USAGE}
  --amount A        in major units of the currency, e.g. 12.50 (default: the rest)
  --currency C      the order's currency, required by the gateway (default PG_CURRENCY, else the
                    one the service recorded for the order, where its store is at hand)
  --yes             do not ask (required when stdin is not a terminal)
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
    async run(args, io) {
      refuseNegativeAmountArgument(args);
      const { values } = parseArgs({ args, options: { ...ORDER_OPTIONS, amount: { type: 'string' }, yes: { type: 'boolean', default: false } }, strict: true });
      const query = referenceOf(values);
      // Else PG_CURRENCY, else the currency the service recorded for the order, where its store is at hand.
      const recorded = query.merchant_reference ? await recordedCurrency(io, query.merchant_reference) : undefined;
      const currency = (currencyOf(io, values.currency, recorded ? undefined : command.toUpperCase()) ?? recorded) as string;
      if (query.merchant_reference) refuseOtherCurrency(values.currency, currency, query.merchant_reference, recorded);
      const amount = values.amount === undefined ? undefined : amountOf(values.amount, currency);
      const client = clientFromEnv(io, values);
      const before = await client.checkStatus(query);
      const order = before.order;
      const allowed = order === undefined ? 0 : capture ? capturableAmount(order) : refundableAmount(order);
      const planned = amount ?? allowed;
      // What cannot be done is refused by the client without a question: nothing would be sent.
      const asked = order !== undefined && planned > 0 && planned <= allowed;
      if (asked) {
        const reference = query.merchant_reference ?? order.svc_id ?? '';
        const question = `${verb} ${money(planned, currency)} of order ${reference}${amount === undefined ? ' (the rest)' : ''}? It is ${standingOf(order, currency)}: ${amountsOf(order, currency)}.${currencyNote(values.currency, currency, values.currency === undefined && !io.env['PG_CURRENCY']?.trim())}`;
        if (!(await confirm(io, question, values.yes))) {
          io.stderr.write(`pg-checkout ${command}: cancelled; nothing was sent\n`);
          return EXIT.cancelled;
        }
      }
      // The amount asked about, "the rest" included: the rest as the client reads it a moment later
      // could be more (a capture in between) than what was confirmed and is reported.
      const sent = amount ?? (asked ? planned : undefined);
      const input = { ...query, currency, ...(sent === undefined ? {} : { amount: sent }) } as { merchant_reference: string; currency: string; amount?: number };
      const watched = await watchBeforeMove(io, query.merchant_reference, client.language, currency, order);
      const result = capture ? await client.capture(input) : await client.refund(input);
      const done = `${capture ? 'Captured' : 'Refunded'} ${money(planned, currency)}`;
      const applied = capture ? captureApplied : refundApplied;
      const shows = order === undefined ? NEVER_SHOWN : applied(order, sent ?? planned);
      return reportMoneyResult(io, client, { command, result, done, query, currency, before: order, shows, json: values.json, watched });
    },
  };
}

export const captureCommand = moneyCommand('capture');
export const refundCommand = moneyCommand('refund');

export const voidCommand: CliCommand = {
  summary: 'void an authorization (nothing captured yet)',
  usage: `Usage: pg-checkout void --reference R [--currency C] [--yes] [--json]

Voids an authorization: the held amount is released. A captured order cannot be voided (refund it).
It says what it will do and asks first; it is never sent twice (a lost answer is settled by CHECK_STATUS).
  --reference R     the order's merchant_reference (or --svc-id)
${GATEWAY_ID_USAGE}
  --currency C      the order's currency, to show the amounts (default: the one the service
                    recorded for the order in its store, else PG_CURRENCY)
  --yes             do not ask (required when stdin is not a terminal)
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: { ...ORDER_OPTIONS, yes: { type: 'boolean', default: false } }, strict: true });
    const query = referenceOf(values);
    const currency = await shownCurrency(io, values.currency, query.merchant_reference);
    const client = clientFromEnv(io, values);
    const before = await client.checkStatus(query);
    const name = query.merchant_reference ?? query.svc_id;
    // What the gateway would refuse (09001, or nothing to void) is refused here, before the question.
    if (before.order && !isVoidable(before.order)) {
      const refused = refusedByClient<never>('nothing_to_void', client.language, { state: before.order.state }, before.order);
      if (values.json) printJson(io, refused);
      else io.stderr.write(`pg-checkout void: order ${name}: ${refused.response_message} Nothing was sent.\n  order: ${amountsOf(before.order, currency)}\n`);
      return EXIT.refused;
    }
    if (before.order) {
      const question = `Void the authorization of order ${name}? It is ${before.order.state.replace('_', ' ')}: ${amountsOf(before.order, currency)}.${currencyNote(values.currency, currency)}`;
      if (!(await confirm(io, question, values.yes))) {
        io.stderr.write('pg-checkout void: cancelled; nothing was sent\n');
        return EXIT.cancelled;
      }
    }
    const watched = await watchBeforeMove(io, query.merchant_reference, client.language, currency, before.order);
    const result = await client.voidAuthorization(query);
    return reportMoneyResult(io, client, {
      command: 'void',
      result,
      done: 'Voided',
      query,
      currency,
      before: before.order,
      shows: voidApplied(before.order),
      json: values.json,
      watched,
    });
  },
};
