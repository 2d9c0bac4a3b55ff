/** `pg-checkout tokens` and `exchange`: read-only questions to the gateway. */
import { parseArgs } from 'node:util';
import { amountOf, clientFromEnv, refuseNegativeAmountArgument, COMMON_OPTIONS, COMMON_USAGE, currencyOf, failed, money, printJson } from './client-env.ts';
import { EXIT, EXIT_CODES_HELP, exitCodeOf, type CliCommand } from './command.ts';
import { dateOption } from './dates.ts';
import { CliError } from './input.ts';
import { redactForOperator } from './json-output.ts';

export const tokensCommand: CliCommand = {
  summary: 'list the stored card tokens (GET_TOKENS), cards masked',
  usage: `Usage: pg-checkout tokens [--status ACTIVE|INACTIVE] [--from D] [--to D] [--json]

Lists the merchant's stored tokens (GET_TOKENS, read from the gateway's XML answer): name, masked
card, expiry, brand, status and creation date.
  --status S        ACTIVE or INACTIVE only
  --from D, --to D  created in this window: a date (2026-03-10, UTC) or ISO 8601 with an offset
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { ...COMMON_OPTIONS, status: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
      strict: true,
    });
    const status = values.status?.toUpperCase();
    if (status !== undefined && status !== 'ACTIVE' && status !== 'INACTIVE') throw new CliError('--status must be ACTIVE or INACTIVE');
    const client = clientFromEnv(io, values);
    const result = await client.listTokens({
      ...(status ? { token_status: status } : {}),
      ...(values.from ? { from_date: dateOption(values.from, 'start', '--from') } : {}),
      ...(values.to ? { to_date: dateOption(values.to, 'end', '--to') } : {}),
    });
    if (values.json) {
      printJson(io, result);
      return exitCodeOf(result.outcome);
    }
    if (result.outcome !== 'success') return failed(io, 'tokens', result);
    // Shown as --json shows them: a card number masked even if a gateway sent one clear.
    const tokens = redactForOperator(result.answer?.data_list ?? []) as NonNullable<NonNullable<typeof result.answer>['data_list']>;
    const rows = [
      ['token_name', 'card_number', 'expiry', 'brand', 'status', 'created'],
      ...tokens.map((token) => [token.token_name, token.card_number, token.expiry_date, token.card_brand, token.token_status, token.creation_date]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
    for (const row of rows) io.stdout.write(`${row.map((cell, column) => (cell ?? '').padEnd(widths[column] ?? 0)).join('  ').trimEnd()}\n`);
    io.stdout.write(`${tokens.length} token${tokens.length === 1 ? '' : 's'}\n`);
    return EXIT.success;
  },
};

export const exchangeCommand: CliCommand = {
  summary: 'convert an amount between currencies at the gateway’s rate (CURRENCY_CONVERSION)',
  usage: `Usage: pg-checkout exchange --amount A --from C --to C [--json]

Converts an amount at the gateway's live rate (the currency exchange service must be activated).
  --amount A        in major units of --from, e.g. 100.00
  --from C, --to C  ISO 4217 currency codes
${COMMON_USAGE}

${EXIT_CODES_HELP}`,
  async run(args, io) {
    refuseNegativeAmountArgument(args);
    const { values } = parseArgs({
      args,
      options: { ...COMMON_OPTIONS, amount: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
      strict: true,
    });
    if (values.amount === undefined || values.from === undefined || values.to === undefined) {
      throw new CliError('--amount, --from and --to are required');
    }
    const from = currencyOf(io, values.from, 'the conversion', '--from') as string;
    const to = currencyOf(io, values.to, 'the conversion', '--to') as string;
    const amount = amountOf(values.amount, from);
    const client = clientFromEnv(io, values);
    const result = await client.currencyExchange({ amount, currency: from, converted_currency: to });
    if (values.json) {
      printJson(io, result);
      return exitCodeOf(result.outcome);
    }
    if (result.outcome !== 'success') return failed(io, 'exchange', result);
    const converted = Number(result.answer?.converted_amount ?? 0);
    io.stdout.write(`${money(amount, from)} = ${money(converted, to)} (rate ${result.answer?.conversion_rate ?? '?'})\n`);
    return EXIT.success;
  },
};
