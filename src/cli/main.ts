/**
 * The `pg-checkout` command: `sign` and `verify` for the moment the gateway answers "signature
 * mismatch", `serve` to run the merchant endpoint, and the back-office commands for operations
 * staff (status, capture, refund, void, tokens, report, batch, exchange), all configured by the
 * same `PG_*` variables. Add a command by adding it to `COMMANDS`; `--help` and `-h` then work for
 * it too.
 */
import { ConfigError } from '../gateway/settings.ts';
import { StartupError } from '../server/errors.ts';
import { StoreOpenError } from '../store/store.ts';
import { GatewayRequestError, GatewayUnavailableError, mayHaveArrived } from '../gateway/transport.ts';
import { batchCommand } from './batch-command.ts';
import { CliConfigError } from './client-env.ts';
import { EXIT, EXIT_CODES_HELP, type CliCommand, type Io } from './command.ts';
import { CliError } from './input.ts';
import { captureCommand, refundCommand, statusCommand, voidCommand } from './order-commands.ts';
import { exchangeCommand, tokensCommand } from './query-commands.ts';
import { reportCommand } from './report-command.ts';
import { reconcileCommand } from './reconcile-command.ts';
import { resultsCommand } from './results.ts';
import { serveCommand } from './serve-command.ts';
import { signCommand, verifyCommand } from './signing.ts';

export type { Io } from './command.ts';

/** Every command, by the name typed after `pg-checkout`. */
export const COMMANDS: Readonly<Record<string, CliCommand>> = {
  sign: signCommand,
  verify: verifyCommand,
  serve: serveCommand,
  status: statusCommand,
  capture: captureCommand,
  refund: refundCommand,
  void: voidCommand,
  tokens: tokensCommand,
  report: reportCommand,
  batch: batchCommand,
  exchange: exchangeCommand,
  results: resultsCommand,
  reconcile: reconcileCommand,
};

/** Operations that change nothing at the gateway: a failure of one leaves nothing to check. */
const READ_OPERATIONS = new Set(['CHECK_STATUS', 'GET_TOKENS', 'GET_BATCH_RESULTS', 'CURRENCY_CONVERSION', 'GENERATE_REPORT', 'DOWNLOAD_REPORT']);

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: pg-checkout <command> [options]   (pg-checkout <command> --help for its options)

Commands:
${lines.join('\n')}

The back-office commands and serve read the PG_* environment variables (each documented in the
package's .env.example, node_modules/pg-checkout/.env.example).

${EXIT_CODES_HELP}`;
}

function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** Runs one command line; returns the exit code. Every error is one line on stderr. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === undefined) {
      io.stderr.write('pg-checkout: no command given; try --help\n');
      return EXIT.usage;
    }
    io.stdout.write(`${usage()}\n`);
    return EXIT.success;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`pg-checkout: unknown command "${name}"; try --help\n`);
    return EXIT.usage;
  }
  if (wantsHelp(rest)) {
    io.stdout.write(`${command.usage}\n`);
    return EXIT.success;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    io.stderr.write(`pg-checkout ${name}: ${message}\n`);
    // A store that cannot be opened (an unwritable folder, an unreachable database, a newer schema) is the configuration's.
    if (error instanceof ConfigError || error instanceof CliConfigError || error instanceof StoreOpenError || error instanceof StartupError) return EXIT.configuration;
    if (error instanceof GatewayUnavailableError) {
      const changedNothing = !mayHaveArrived(error.kind) || READ_OPERATIONS.has(error.operation);
      io.stderr.write(
        changedNothing
          ? '  nothing was changed at the gateway; run it again when it answers\n'
          : `  the gateway may have received the ${error.operation}: check before sending it again\n`,
      );
      return EXIT.unreachable;
    }
    if (error instanceof GatewayRequestError || error instanceof CliError) return EXIT.usage;
    // parseArgs refuses an unknown option or a missing value with a TypeError coded ERR_PARSE_ARGS_*.
    if (String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS')) return EXIT.usage;
    return EXIT.internal;
  }
}
