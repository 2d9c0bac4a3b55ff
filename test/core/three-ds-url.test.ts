/**
 * Where a customer may be sent for 3-D Secure: the issuer's page, over https. Plain http only when
 * the gateway itself is reached over plain http on this machine (the local sandbox, tests), and
 * then only to this machine.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackUrl, isUsableThreeDsUrl } from '../../src/core/response.ts';

const LIVE = 'https://paymentservices.gateway.example';
const SANDBOX = 'http://127.0.0.1:8787';

describe('isUsableThreeDsUrl', () => {
  it('takes an https address from any gateway', () => {
    assert.equal(isUsableThreeDsUrl('https://acs.bank.example/challenge?id=1', LIVE), true);
    assert.equal(isUsableThreeDsUrl('https://acs.bank.example:8443/pa', SANDBOX), true);
    assert.equal(isUsableThreeDsUrl('HTTPS://ACS.BANK.EXAMPLE/x', LIVE), true);
  });

  it('refuses plain http from a gateway reached over https, even on this machine', () => {
    assert.equal(isUsableThreeDsUrl('http://acs.bank.example/challenge?id=1', LIVE), false);
    assert.equal(isUsableThreeDsUrl('http://127.0.0.1:8787/FortAPI/3ds/challenge?id=1', LIVE), false);
    assert.equal(isUsableThreeDsUrl('http://localhost/3ds', 'https://localhost:8443'), false);
  });

  it('takes plain http on this machine from a gateway reached over plain http on this machine (the local sandbox)', () => {
    assert.equal(isUsableThreeDsUrl('http://127.0.0.1:8787/FortAPI/3ds/challenge?id=1', SANDBOX), true);
    assert.equal(isUsableThreeDsUrl('http://127.0.0.1:50123/FortAPI/3ds/acs?id=1', SANDBOX), true, 'another port: a proxy in front of the sandbox');
    assert.equal(isUsableThreeDsUrl('http://localhost:5173/FortAPI/3ds/challenge', 'http://localhost:5173'), true);
    assert.equal(isUsableThreeDsUrl('http://[::1]:8787/3ds', 'http://[::1]:8787'), true);
  });

  it('refuses plain http to another machine even from the local sandbox', () => {
    assert.equal(isUsableThreeDsUrl('http://acs.bank.example/challenge', SANDBOX), false);
    assert.equal(isUsableThreeDsUrl('http://192.168.1.20:8787/3ds', SANDBOX), false);
  });

  it('refuses what is not an absolute http(s) address, or carries credentials', () => {
    for (const url of ['', ' ', '/FortAPI/3ds/challenge', 'acs.bank.example/x', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://acs.bank.example/x', 'https://user:pass@acs.bank.example/x', 'https://bank.example@evil.example/']) {
      assert.equal(isUsableThreeDsUrl(url, LIVE), false, url);
      assert.equal(isUsableThreeDsUrl(url, SANDBOX), false, url);
    }
  });

  it('refuses anything when the gateway address itself cannot be read', () => {
    assert.equal(isUsableThreeDsUrl('https://acs.bank.example/x', 'not a url'), false);
  });
});

describe('isLoopbackUrl', () => {
  it('is this machine: localhost, 127.0.0.0/8 and ::1, nothing else', () => {
    for (const url of ['http://localhost:1', 'http://127.0.0.1', 'http://127.8.9.10:80', 'http://[::1]:8787']) assert.equal(isLoopbackUrl(new URL(url)), true, url);
    for (const url of ['http://0.0.0.0', 'http://localhost.example', 'http://192.168.1.2', 'http://10.0.0.1', 'http://[::2]']) assert.equal(isLoopbackUrl(new URL(url)), false, url);
    // A domain that merely starts with "127." is another machine (it passed as loopback before).
    assert.equal(isLoopbackUrl(new URL('http://127.evil.example:8787')), false);
    assert.equal(isUsableThreeDsUrl('http://127.evil.example/3ds', 'http://127.0.0.1:8787'), false);
    assert.equal(isLoopbackUrl(new URL('http://127.1:8787')), true, 'the URL parser writes 127.1 as 127.0.0.1');
  });
});
