/** `pg-checkout serve`: the command's usage; the server itself (serve.ts) is loaded only when it runs. */
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.ts';
import type { RunningServer } from '../server/serve.ts';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs until SIGTERM (a deploy, `docker stop`, systemd) or SIGINT (Ctrl-C), then stops gracefully
 * (RunningServer.close): exit code 0, or 1 when requests had to be cut at the deadline. A second
 * signal stops at once (exit code 128 + the signal's number), as an impatient Ctrl-C expects.
 */
function stopOnSignal(running: Pick<RunningServer, 'close'>): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      for (const signal of SIGNALS) {
        process.off(signal, stop);
        process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
      }
      const finish = (code: number): void => {
        resolve(code);
        // Work cut at the deadline may still hold the process (a gateway call awaiting its answer): it ends here.
        setTimeout(() => process.exit(code), 100).unref();
      };
      running.close().then(
        ({ cut }) => finish(cut > 0 ? 1 : 0),
        () => finish(1),
      );
    };
    for (const signal of SIGNALS) process.once(signal, stop);
  });
}

export const serveCommand: CliCommand = {
  summary: 'run the merchant endpoint from the PG_* environment variables',
  usage: `Usage: pg-checkout serve [--sandbox]

Runs the merchant endpoint on PG_HOST:PG_PORT (127.0.0.1:8787 by default), configured by the PG_*
environment variables (each documented in the package's .env.example,
node_modules/pg-checkout/.env.example); a missing or malformed one stops start-up naming it.
What it must not forget (results and their delivery to the shop, watched payments, OTP counts) is
kept in a store: SQLite under PG_DATA_DIR (default ./pg-checkout-data), or PostgreSQL at
PG_DATABASE_URL for several instances. It asks the gateway about payments that finish after the
customer left (every PG_RECONCILE_INTERVAL_SECONDS at most) and reports them like any result.
On SIGTERM or SIGINT it takes no new request and lets those under way finish, for at most
PG_SHUTDOWN_GRACE_SECONDS (default 8); a second signal stops it at once.
  --sandbox   host the sandbox gateway on the same port, and default every unset credential and
              gateway address (PG_BATCH_SANDBOX_URL included) to the sandbox's; the sandbox keeps
              its state in PG_DATA_DIR/sandbox-state.json across restarts, and names the gateway's
              order reference as PG_GATEWAY_REFERENCE_FIELD says (svc_id, or fort_id as live)`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: { sandbox: { type: 'boolean', default: false } }, strict: true });
    const { sandboxAddressWarnings, serveFromEnv } = await import('./serve.ts');
    const running = await serveFromEnv(io.env, { sandbox: values.sandbox });
    if (values.sandbox) for (const warning of sandboxAddressWarnings(io.env)) io.stderr.write(`${warning}\n`);
    io.stdout.write(`pg-checkout merchant endpoint listening on ${running.endpointUrl}${values.sandbox ? ' (with the sandbox gateway)' : ''}\n`);
    return stopOnSignal(running);
  },
};
