/**
 * What the back-office commands share: the client built from the same `PG_*` variables as `serve`,
 * less `PG_CHECKOUT_URL` (`backOfficeConfigFromEnv`), money read and shown in major units with its currency, the confirmation a
 * money-moving command asks for, and printing a result for people or (`--json`) for scripts.
 */
import { createInterface } from 'node:readline';
import { amountErrorMessage } from '../core/amount-messages.ts';
import { AmountError, currencyExponent, toMinorUnits, totalFromMinorUnits } from '../core/amounts.ts';
import { isLanguage, type Language } from '../core/language.ts';
import type { OrderStatus } from '../core/order-status.ts';
import { createGatewayClient, type GatewayClient } from '../gateway/client.ts';
import { refusalHint } from '../gateway/messages.ts';
import type { GatewayResult } from '../gateway/results.ts';
import { connectionOf } from '../gateway/settings.ts';
import { backOfficeConfigFromEnv } from '../server/config.ts';
import { createJsonLogger } from '../log/logger.ts';
import { EXIT, exitCodeOf, type Io } from './command.ts';
import { CliError } from './input.ts';

/** Options every back-office command takes. */
export const COMMON_OPTIONS = {
  json: { type: 'boolean', default: false },
  language: { type: 'string' },
  verbose: { type: 'boolean', default: false },
} as const;

export const COMMON_USAGE = `  --json            print the typed result as JSON (for scripts; access code and signatures redacted)
  --language en|ar  language of the gateway's messages (default en)
  --verbose         write the client's structured logs to stderr (no card data, phrase or signature)`;

/** A configuration the CLI cannot run with: exit 3. */
export class CliConfigError extends Error {}

export function languageOption(value: string | undefined): Language {
  if (value === undefined) return 'en';
  if (!isLanguage(value)) throw new CliError('--language must be en or ar');
  return value;
}

/** The client from `PG_*` (as `serve` reads them), logging to stderr with --verbose. */
export function clientFromEnv(io: Io, options: { readonly language?: string | undefined; readonly verbose?: boolean }): GatewayClient {
  let config: ReturnType<typeof backOfficeConfigFromEnv>;
  try {
    config = backOfficeConfigFromEnv(io.env);
  } catch (error) {
    throw new CliConfigError((error as Error).message);
  }
  return createGatewayClient({
    ...connectionOf(config),
    batchSandboxUrl: config.batchSandboxUrl,
    language: languageOption(options.language),
    ...(options.verbose ? { logger: createJsonLogger((line) => io.stderr.write(`${line}\n`)) } : {}),
  });
}

/** `--currency`, else `PG_CURRENCY`; required where the gateway needs one. */
export function currencyOf(io: Io, given: string | undefined, required: string | undefined, option = '--currency'): string | undefined {
  const currency = (given ?? io.env['PG_CURRENCY'])?.trim().toUpperCase() || undefined;
  if (currency === undefined) {
    if (required) {
      throw new CliError(
        option === '--currency'
          ? `--currency is required: ${required} needs the order's currency and CHECK_STATUS does not answer one (or set PG_CURRENCY)`
          : `${option} is required: ${required} needs it (or set PG_CURRENCY)`,
      );
    }
    return undefined;
  }
  try {
    currencyExponent(currency);
  } catch {
    throw new CliError(`${given !== undefined ? option : 'PG_CURRENCY'} ${currency} is not an ISO 4217 currency code such as EGP`);
  }
  return currency;
}

/**
 * What a confirmation adds about its amounts: the currency they are shown in and where it came
 * from. CHECK_STATUS answers no currency, so a wrong --currency would otherwise show the order's
 * minor units as convincing amounts of another currency (the gateway refuses the operation itself, 00013).
 */
export function currencyNote(given: string | undefined, currency: string | undefined, fromStore = false): string {
  if (currency === undefined) return '';
  const origin = given !== undefined ? '--currency' : fromStore ? "the service's record of the order" : 'PG_CURRENCY';
  return ` Amounts in ${currency}, from ${origin}: CHECK_STATUS does not say the order's currency.`;
}

/** The CLI's own word for an amount that is negative or zero. */
const POSITIVE_AMOUNT = 'must be a positive amount in major units, e.g. 12.50';

/**
 * `--amount -5` is taken by node's parser for an option and refused in its words ("argument is
 * ambiguous"): the CLI's own message instead, before the arguments are parsed.
 */
export function refuseNegativeAmountArgument(args: readonly string[], option = '--amount'): void {
  const index = args.indexOf(option);
  if (index >= 0 && /^-[\d.]/.test(args[index + 1] ?? '')) throw new CliError(`${option} ${POSITIVE_AMOUNT}`);
}

/** `--amount 12.50` in minor units of `currency`. */
export function amountOf(text: string, currency: string, option = '--amount'): number {
  if (text.trim().startsWith('-')) throw new CliError(`${option} ${POSITIVE_AMOUNT}`);
  let amount: number;
  try {
    amount = toMinorUnits(text, currency, option);
  } catch (error) {
    if (error instanceof AmountError) throw new CliError(amountErrorMessage(error, 'en'));
    throw error;
  }
  if (amount <= 0) throw new CliError(`${option} ${POSITIVE_AMOUNT}`);
  return amount;
}

/** Minor units for an operator: "EGP 1,234.50" (the code, never a symbol such as $), or "1250 (minor units)" without a currency. */
export function money(amount: number, currency: string | undefined): string {
  if (currency === undefined) return `${amount} (minor units)`;
  const exponent = currencyExponent(currency);
  const format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: exponent, maximumFractionDigits: exponent });
  // Intl formats a decimal string exactly; the cast is for older lib typings that only list number.
  // A total (a batch's lines added up) may pass the 10 digits one amount on the wire may have.
  return format.format(totalFromMinorUnits(amount, currency) as unknown as number).replace(/\u00a0/g, ' ');
}

/** "authorized EGP 100.00, captured EGP 40.00, refunded EGP 0.00". */
export function amountsOf(order: OrderStatus, currency: string | undefined): string {
  return `authorized ${money(order.authorized_amount, currency)}, captured ${money(order.captured_amount, currency)}, refunded ${money(order.refunded_amount, currency)}`;
}

/**
 * Asks on stderr and reads the answer from stdin. `--yes` skips it; a stdin that is not a terminal
 * (a script, a pipe) is never taken for a yes: the command is refused, to be run again with --yes.
 */
export async function confirm(io: Io, question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!io.stdin.isTTY) {
    throw new CliError(`${question} It needs confirmation, and stdin is not a terminal; run it again with --yes`);
  }
  const reader = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  try {
    const answer = await new Promise<string>((resolve) => {
      io.stderr.write(`${question} [y/N] `);
      reader.once('line', resolve);
      reader.once('close', () => resolve(''));
    });
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    reader.close();
  }
}

/** `--json`: the value for scripts, credentials redacted and card numbers masked (json-output.ts). */
export { printJson } from './json-output.ts';

/** One line for a result that is not a success: the outcome, the code and the message. */
export function describeOutcome(result: GatewayResult<unknown>): string {
  const code = result.response_code ? ` ${result.response_code}` : result.reason ? ` (${result.reason})` : '';
  // A refusal of the merchant's own settings (a wrong request phrase: 00008) says which to check.
  const hint = result.source === 'answer' ? refusalHint(result) : undefined;
  return `${result.outcome}${code}: ${result.response_message}${hint ? ` (${hint})` : ''}`;
}

/** Prints a result that is not a success to stderr, and the exit code that goes with it. */
export function failed(io: Io, command: string, result: GatewayResult<unknown>, currency?: string): number {
  io.stderr.write(`pg-checkout ${command}: ${describeOutcome(result)}\n`);
  if (result.order) io.stderr.write(`  order: ${result.order.state}; ${amountsOf(result.order, currency)}\n`);
  // A batch is checked by its own reading (batch status), an order by CHECK_STATUS (status).
  const check = command.startsWith('batch') ? 'the batch (pg-checkout batch status)' : 'the order (pg-checkout status)';
  if (result.outcome === 'unknown') io.stderr.write(`  The operation was not sent again. Check ${check} before trying again.\n`);
  return exitCodeOf(result.outcome);
}

export { EXIT };
