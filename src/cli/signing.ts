/** `pg-checkout sign` and `verify`: for the moment the gateway answers "signature mismatch". */
import { parseArgs } from 'node:util';
import {
  explainSigningString,
  parseShaType,
  sign,
  signatureOptionsFor,
  verifySignature,
  type ShaType,
  type SignableParams,
} from '../core/signature.ts';
import { EXIT, type CliCommand } from './command.ts';
import { CliError, parseSignedMessage, readStdin } from './input.ts';

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

export const signCommand: CliCommand = {
  summary: 'sign a request read from stdin (JSON) with the request phrase',
  usage: `Usage: pg-checkout sign --phrase P [--sha sha256|sha512] [--merchant-page] [--explain] < request.json

Prints the signature of the JSON object on stdin: every parameter but signature, sorted, written
name=value, the phrase at both ends, hashed.
  --phrase P        the SHA request phrase (required)
  --sha             sha256 (default) or sha512, as the back-office sets it
  --merchant-page   leave the card fields out of the string, as merchant page 2.0 does
  --explain         print the hashed string first, the phrase masked`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: { ...signingOptions, explain: { type: 'boolean', default: false } }, strict: true });
    const phrase = requirePhrase(values.phrase);
    const sha = shaFrom(values.sha);
    const params = parseSignedMessage(await readStdin(io.stdin), 'json');
    const options = { merchantPage: values['merchant-page'] };
    if (values.explain) io.stdout.write(`${explainSigningString(params, options)}\n`);
    io.stdout.write(`${await sign(params, phrase, sha, options)}\n`);
    return EXIT.success;
  },
};

export const verifyCommand: CliCommand = {
  summary: "verify a gateway answer read from stdin (JSON or a=b&c=d) with the response phrase",
  usage: `Usage: pg-checkout verify --phrase P [--sha sha256|sha512] [--merchant-page] < response

Checks the signature of a gateway answer on stdin: a JSON object, or a return-URL body a=b&c=d.
Exit 0 when it verifies, 1 with the reason when it does not.
  --phrase P        the SHA response phrase (required)
  --sha             sha256 (default) or sha512
  --merchant-page   leave the card fields out of the string`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: signingOptions, strict: true });
    const phrase = requirePhrase(values.phrase);
    const sha = shaFrom(values.sha);
    const params: SignableParams = parseSignedMessage(await readStdin(io.stdin), 'json-or-form');
    const result = await verifySignature(params, phrase, sha, { ...signatureOptionsFor(params), merchantPage: values['merchant-page'] });
    if (result.valid) {
      io.stdout.write('signature valid\n');
      return EXIT.success;
    }
    const reason =
      result.reason === 'missing'
        ? 'the message carries no signature parameter'
        : 'the signature does not match the message (check the phrase, the SHA type and every parameter)';
    io.stderr.write(`signature invalid: ${reason}\n`);
    return EXIT.verificationFailed;
  },
};
