/**
 * The PHP of docs/gateway.md ("Verifying a token list beside an official SDK") run by PHP itself
 * against a GET_TOKENS answer signed by the sandbox gateway: a shop that cannot verify lists with
 * the official PHP SDK can with these few lines. The SDK's own way (each value through PHP's string
 * conversion) is run too, to show why it cannot.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxGateway, SANDBOX_MERCHANT } from '../../src/sandbox/index.ts';
import { signed } from './support.ts';

const folder = mkdtempSync(join(tmpdir(), 'pg-php-verify-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The PHP block the documentation gives, exactly as written there. */
function documentedPhp(): string {
  const doc = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
  const match = /<!-- php: verify a signed answer with lists -->\s*```php\n([\s\S]*?)```/.exec(doc);
  if (!match?.[1]) throw new Error('docs/gateway.md has no PHP block to verify lists');
  return match[1];
}

/** Runs the documented function (or the SDK's way) on a JSON answer; prints "valid" or "invalid". */
function php(answer: unknown, way: 'documented' | 'sdk'): string {
  const script = join(folder, `${way}.php`);
  const sdkWay = `
function sdk_signature_valid(array $answer, string $phrase): bool {
    $given = $answer['signature'];
    unset($answer['signature']);
    ksort($answer);
    $text = '';
    foreach ($answer as $name => $value) $text .= $name . '=' . @strval(is_array($value) ? 'Array' : $value);
    return hash_equals(hash('sha256', $phrase . $text . $phrase), $given);
}`;
  writeFileSync(
    script,
    `<?php\n${documentedPhp()}\n${sdkWay}\n$answer = json_decode(stream_get_contents(STDIN), true);\n` +
      `$valid = ${way === 'documented' ? 'pg_answer_signature_valid' : 'sdk_signature_valid'}($answer, $argv[1]);\n` +
      `echo $valid ? 'valid' : 'invalid';\n`,
  );
  return execFileSync('php', [script, SANDBOX_MERCHANT.responsePhrase], { input: JSON.stringify(answer) }).toString();
}

let tokenList: Record<string, unknown>;
before(async () => {
  const gateway = createSandboxGateway();
  // Two kept cards, then the list of them, as the gateway answers it.
  for (const [reference, card] of [
    ['php-list-1', '4111111111111111'],
    ['php-list-2', '5123456789012346'],
  ] as const) {
    const created = await gateway.handle(
      new Request('http://sandbox.test/FortAPI/paymentApi', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          await signed({ service_command: 'TOKENIZATION', merchant_reference: reference, language: 'en', card_number: card, expiry_date: '2908', remember_me: 'YES' }),
        ),
      }),
    );
    assert.equal(((await created.json()) as { response_code: string }).response_code, '18000');
  }
  const listed = await gateway.handle(
    new Request('http://sandbox.test/FortAPI/paymentApi', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await signed({ query_command: 'GET_TOKENS', language: 'en' })),
    }),
  );
  tokenList = (await listed.json()) as Record<string, unknown>;
});

describe('verifying a token list in PHP, as docs/gateway.md shows', () => {
  it('the answer holds a list of tokens', () => {
    assert.equal(tokenList['response_code'], '54000');
    assert.ok(Array.isArray(tokenList['data_list']) && tokenList['data_list'].length === 2);
  });

  it('accepts the gateway’s signed list with the documented function', () => {
    assert.equal(php(tokenList, 'documented'), 'valid');
  });

  it('refuses a list whose token was changed', () => {
    const list = structuredClone(tokenList) as { data_list: { token_name: string }[] };
    const [first] = list.data_list;
    if (first) first.token_name = 'TKsomeoneelse';
    assert.equal(php(list, 'documented'), 'invalid');
  });

  it('shows why the SDK’s way cannot: a list becomes the word Array', () => {
    assert.equal(php(tokenList, 'sdk'), 'invalid');
  });
});
