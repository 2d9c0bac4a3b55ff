/**
 * Running the CLI in this process, as a shell would, with what it writes captured; and the
 * environment that names the sandbox's account at a given address.
 */
import { runCli } from '../../../src/cli/main.ts';
import { M } from '../../gateway/support.ts';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `pg-checkout …args` with exactly `env` (nothing of this process's environment) and `stdin`. */
export async function runCaptured(args: readonly string[], env: Record<string, string>, stdin: NodeJS.ReadableStream = process.stdin): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args], {
    stdin,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

/** The back-office settings of the sandbox's account, its gateway at `origin`. */
export function sandboxAccountEnv(origin: string): Record<string, string> {
  return {
    PG_MERCHANT_IDENTIFIER: M.merchantIdentifier,
    PG_ACCESS_CODE: M.accessCode,
    PG_SHA_TYPE: M.shaType === 'sha256' ? 'SHA-256' : 'SHA-512',
    PG_SHA_REQUEST_PHRASE: M.requestPhrase,
    PG_SHA_RESPONSE_PHRASE: M.responsePhrase,
    PG_GATEWAY_BASE_URL: origin,
    PG_API_ROOT: 'FortAPI',
  };
}
