/**
 * `pg-checkout sign` and `verify`: for the moment the gateway answers "signature mismatch". Both
 * take the message as given, names included: a body carrying the gateway's reference as `fort_id`
 * is signed and verified over `fort_id`, as the gateway does. The configured wire name
 * (`PG_GATEWAY_REFERENCE_FIELD`, or `--reference-field`) only adds a note when the message uses the
 * other one, a common cause of a mismatch.
 */
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
import { DEFAULT_GATEWAY_REFERENCE_FIELD, isGatewayReferenceField, type GatewayReferenceField } from '../core/wire-names.ts';
import { CliConfigError } from './client-env.ts';
import { EXIT, type CliCommand, type Io } from './command.ts';
import { CliError, parseSignedMessage, readStdin } from './input.ts';

const signingOptions = {
  phrase: { type: 'string' },
  sha: { type: 'string', default: 'sha256' },
  'merchant-page': { type: 'boolean', default: false },
  'reference-field': { type: 'string' },
  explain: { type: 'boolean', default: false },
} as const;

const REFERENCE_FIELD_USAGE = `  --reference-field svc_id|fort_id
                    the gateway's name of its order reference (default PG_GATEWAY_REFERENCE_FIELD,
                    else svc_id); the message is taken as given either way, this only notes a
                    message that uses the other name`;

/** `--reference-field`, else PG_GATEWAY_REFERENCE_FIELD, else the specification's svc_id. */
function referenceFieldOf(io: Io, given: string | undefined): GatewayReferenceField {
  if (given !== undefined) {
    if (!isGatewayReferenceField(given)) throw new CliError('--reference-field must be svc_id or fort_id');
    return given;
  }
  const configured = io.env['PG_GATEWAY_REFERENCE_FIELD']?.trim();
  if (!configured) return DEFAULT_GATEWAY_REFERENCE_FIELD;
  if (!isGatewayReferenceField(configured)) throw new CliConfigError('PG_GATEWAY_REFERENCE_FIELD must be svc_id or fort_id');
  return configured;
}

/** A note on stderr when the message names the gateway's reference otherwise than the gateway is set to. */
function noteOtherReferenceName(io: Io, params: SignableParams, field: GatewayReferenceField, verb: 'signed' | 'verified'): void {
  const other = field === 'fort_id' ? 'svc_id' : 'fort_id';
  if (!Object.hasOwn(params, other)) return;
  io.stderr.write(
    `note: the message carries ${other}, but the gateway is set to name its order reference ${field}; ` +
      `it was ${verb} as given, and a gateway that says ${field} signs and expects ${field}\n`,
  );
}

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
name=value, the phrase at both ends, hashed. The names are signed as given (fort_id as fort_id).
  --phrase P        the SHA request phrase (required)
  --sha             sha256 (default) or sha512, as the back-office sets it
  --merchant-page   leave the card fields out of the string, as merchant page 2.0 does
  --explain         print the hashed string first, the phrase masked
${REFERENCE_FIELD_USAGE}`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: signingOptions, strict: true });
    const phrase = requirePhrase(values.phrase);
    const sha = shaFrom(values.sha);
    const field = referenceFieldOf(io, values['reference-field']);
    const params = parseSignedMessage(await readStdin(io.stdin), 'json');
    const options = { merchantPage: values['merchant-page'] };
    noteOtherReferenceName(io, params, field, 'signed');
    if (values.explain) io.stdout.write(`${explainSigningString(params, options)}\n`);
    io.stdout.write(`${await sign(params, phrase, sha, options)}\n`);
    return EXIT.success;
  },
};

export const verifyCommand: CliCommand = {
  summary: "verify a gateway answer read from stdin (JSON or a=b&c=d) with the response phrase",
  usage: `Usage: pg-checkout verify --phrase P [--sha sha256|sha512] [--merchant-page] [--explain] < response

Checks the signature of a gateway answer on stdin: a JSON object, or a return-URL body a=b&c=d,
over its names as given (fort_id as fort_id). Exit 0 when it verifies, 1 with the reason when it
does not.
  --phrase P        the SHA response phrase (required)
  --sha             sha256 (default) or sha512
  --merchant-page   leave the card fields out of the string
  --explain         print the string the signature is checked over first, the phrase masked
${REFERENCE_FIELD_USAGE}`,
  async run(args, io) {
    const { values } = parseArgs({ args, options: signingOptions, strict: true });
    const phrase = requirePhrase(values.phrase);
    const sha = shaFrom(values.sha);
    const field = referenceFieldOf(io, values['reference-field']);
    const params: SignableParams = parseSignedMessage(await readStdin(io.stdin), 'json-or-form');
    const options = { ...signatureOptionsFor(params), merchantPage: values['merchant-page'] };
    noteOtherReferenceName(io, params, field, 'verified');
    if (values.explain) io.stdout.write(`${explainSigningString(params, options)}\n`);
    const result = await verifySignature(params, phrase, sha, options);
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
