/**
 * What a command of `pg-checkout` is: a one-line summary for the command list, its usage for
 * `--help`, and `run`, which returns the exit code. Exit codes are one table, documented in
 * docs/back-office.md, so scripts can tell a declined capture from a lost answer.
 */
import type { GatewayOutcome } from '../gateway/results.ts';

export interface Io {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  readonly env: NodeJS.ProcessEnv;
}

export interface CliCommand {
  /** One line for `pg-checkout --help`. */
  readonly summary: string;
  /** What `pg-checkout <command> --help` prints. */
  readonly usage: string;
  run(args: string[], io: Io): Promise<number>;
}

/** Every exit code of the CLI. */
export const EXIT = {
  /** Done: the gateway said success (or, for a query, answered). */
  success: 0,
  /** `verify`: the signature does not match; `report`: the downloaded file does not verify. */
  verificationFailed: 1,
  /** A usage error: an unknown option, a missing or malformed argument, a field the gateway would refuse, no confirmation possible. */
  usage: 2,
  /** The `PG_*` configuration is missing or malformed. */
  configuration: 3,
  /** The gateway declined (the issuer, fraud screening, the financing partner). */
  declined: 4,
  /** Refused: by the gateway (the request or the order's state), or by the client before sending (an amount beyond what the order allows). */
  refused: 5,
  /** The service is not activated for the merchant account (00014). */
  notActivated: 6,
  /** The answer was lost and CHECK_STATUS could not say what happened: check the order before trying again. */
  unknown: 7,
  /** The gateway could not be asked (or its answer could not be used); nothing was sent that moves money. */
  unreachable: 8,
  /** Accepted, still under way (a batch still processing). */
  pending: 9,
  /** The operator answered no at the confirmation. */
  cancelled: 10,
  /** A fault of pg-checkout itself: please report it. */
  internal: 11,
} as const;

export function exitCodeOf(outcome: GatewayOutcome): number {
  switch (outcome) {
    case 'success':
      return EXIT.success;
    case 'pending':
      return EXIT.pending;
    case 'declined':
      return EXIT.declined;
    case 'refused':
      return EXIT.refused;
    case 'not_activated':
      return EXIT.notActivated;
    case 'unknown':
      return EXIT.unknown;
  }
}

/** The exit codes as `--help` lists them. */
export const EXIT_CODES_HELP = `Exit codes:
  0  success          4  declined            8  gateway unreachable (nothing moved)
  1  not verified     5  refused             9  pending
  2  usage error      6  not activated      10  cancelled at the confirmation
  3  configuration    7  outcome unknown: check the order before trying again
                     11  internal error of pg-checkout`;
