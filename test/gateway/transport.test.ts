/** How a failed fetch is read: a request that never left is told apart from a connection that broke. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeFailure, failureOf } from '../../src/gateway/transport.ts';

const fetchFailure = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });

describe('failureOf, when the gateway refuses the connection', () => {
  it('reads a refused connection as not sent', () => {
    assert.equal(failureOf(fetchFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))), 'not_sent');
  });

  it('reads a host refused at each of its addresses (one AggregateError) as not sent', () => {
    const refused = (address: string) => Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    assert.equal(failureOf(fetchFailure(new AggregateError([refused('::1'), refused('127.0.0.1')]))), 'not_sent');
  });

  it('reads a port fetch never connects to as not sent', () => {
    assert.equal(failureOf(fetchFailure(new Error('bad port'))), 'not_sent');
  });

  it('still reads a reset connection as broken', () => {
    assert.equal(failureOf(fetchFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))), 'connection');
  });

  it('says that nothing was sent', () => {
    assert.match(describeFailure('not_sent'), /could not connect to the gateway \(connection refused or unknown host\); nothing was sent/);
    assert.match(describeFailure('not_sent', undefined, undefined, 'gateway.example:8443'), /^could not connect to the gateway at gateway\.example:8443 /);
  });
});
