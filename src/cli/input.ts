/** Reading what the CLI is given on stdin: a JSON object, or a return-URL body `a=b&c=d`. */
import type { SignableParams } from '../core/signature.ts';

/** A user error: printed as one line, exit code 2. */
export class CliError extends Error {}

export async function readStdin(stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string> {
  if (stdin.isTTY) throw new CliError('no input on stdin: pipe a JSON object (or a=b&c=d) into the command');
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text.length === 0) throw new CliError('no input on stdin: pipe a JSON object (or a=b&c=d) into the command');
  return text;
}

/**
 * Parses the message to sign or verify. JSON must be one object; the form `a=b&c=d` (as the
 * gateway posts to a return URL) is accepted where a response is expected.
 */
export function parseSignedMessage(text: string, accept: 'json' | 'json-or-form'): SignableParams {
  if (text.startsWith('{') || accept === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CliError(`invalid JSON on stdin: ${(error as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new CliError('stdin must hold one JSON object of request parameters');
    }
    return parsed as SignableParams;
  }
  if (!text.includes('=')) throw new CliError('stdin is neither a JSON object nor a=b&c=d form data');
  return Object.fromEntries(new URLSearchParams(text));
}
