/**
 * The `pg-checkout` command: `sign` and `verify` for the moment the gateway answers "signature
 * mismatch", and `serve` to run the merchant endpoint from environment variables.
 */
import { parseArgs } from 'node:util';
import { readStdin, parseSignedMessage, CliError } from './input.ts';
import {
  explainSigningString,
  parseShaType,
  sign,
  signatureOptionsFor,
  verifySignature,
  type SignableParams,
  type ShaType,
} from '../core/signature.ts';

const USAGE = `Usage:
  pg-checkout sign --phrase P [--sha sha256|sha512] [--merchant-page] [--explain] < request.json
  pg-checkout verify --phrase P [--sha sha256|sha512] [--merchant-page] < response (JSON or a=b&c=d)
  pg-checkout serve [--sandbox] (configuration from PG_* environment variables, see .env.example;
                                --sandbox hosts the sandbox gateway on the same port)`;

interface Io {
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: NodeJS.ProcessEnv;
}

const signingOptions = {
  phrase: { type: 'string' },
  sha: { type: 'string', default: 'sha256' },
  'merchant-page': { type: 'boolean', default: false },
} as const;

function shaFrom(value: string): ShaType {
  try {
    return parseShaType(value);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

function requirePhrase(phrase: string | undefined): string {
  if (!phrase) throw new CliError('--phrase is required (the SHA request or response phrase)');
  return phrase;
}

async function signCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { ...signingOptions, explain: { type: 'boolean', default: false } },
    strict: true,
  });
  const phrase = requirePhrase(values.phrase);
  const sha = shaFrom(values.sha);
  const params = parseSignedMessage(await readStdin(io.stdin), 'json');
  const options = { merchantPage: values['merchant-page'] };
  if (values.explain) io.stdout.write(`${explainSigningString(params, options)}\n`);
  io.stdout.write(`${await sign(params, phrase, sha, options)}\n`);
  return 0;
}

async function verifyCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: signingOptions, strict: true });
  const phrase = requirePhrase(values.phrase);
  const sha = shaFrom(values.sha);
  const params: SignableParams = parseSignedMessage(await readStdin(io.stdin), 'json-or-form');
  const result = await verifySignature(params, phrase, sha, { ...signatureOptionsFor(params), merchantPage: values['merchant-page'] });
  if (result.valid) {
    io.stdout.write('signature valid\n');
    return 0;
  }
  const reason =
    result.reason === 'missing'
      ? 'the message carries no signature parameter'
      : 'the signature does not match the message (check the phrase, the SHA type and every parameter)';
  io.stderr.write(`signature invalid: ${reason}\n`);
  return 1;
}

async function serveCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { sandbox: { type: 'boolean', default: false } }, strict: true });
  const { serveFromEnv } = await import('./serve.ts');
  const { endpointUrl } = await serveFromEnv(io.env, { sandbox: values.sandbox });
  io.stdout.write(`pg-checkout merchant endpoint listening on ${endpointUrl}${values.sandbox ? ' (with the sandbox gateway)' : ''}\n`);
  return new Promise<number>(() => {});
}

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  sign: signCommand,
  verify: verifyCommand,
  serve: serveCommand,
  results: async (args, io) => (await import('./results.ts')).resultsCommand(args, io),
};

/** Runs one command line; returns the exit code. Every error is one line on stderr. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    io.stderr.write(`pg-checkout: ${command ? `unknown command "${command}"` : 'no command given'}; try --help\n`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`pg-checkout ${command}: ${message.split('\n')[0]}\n`);
    return 2;
  }
}
