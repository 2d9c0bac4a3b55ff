import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { LitElement } from 'lit';
import { hostedPageCall, orderCall } from '../../../src/core/endpoint-api.ts';
import { EndpointClient, EndpointRequestError } from '../../../src/components/shared/endpoint-client.ts';
import { EndpointController, type RequestOutcome } from '../../../src/components/shared/endpoint-controller.ts';
import type { PgRequestCompleteEvent, PgRequestErrorEvent } from '../../../src/components/shared/events.ts';
import { ENDPOINT, ORDERS, startNetwork, type TestNetwork } from '../support/network.ts';

class ClientHost extends LitElement {
  endpoint = ENDPOINT;
  orderToken = '';
  readonly requests = new EndpointController(this, { describeError: (error) => `failed: ${error.kind}` });
}
customElements.define('test-client-host', ClientHost);

/** The error a request fails with (and a test failure if it succeeds). */
async function failureOf(request: Promise<unknown>): Promise<EndpointRequestError> {
  try {
    await request;
  } catch (error) {
    if (error instanceof EndpointRequestError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('the endpoint client', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  afterEach(() => network.reset());

  it('posts JSON to {endpoint}{route} and returns the checked result', async () => {
    const client = new EndpointClient(`${ENDPOINT}/`);
    const order = await client.request(orderCall, { merchant_reference: ORDERS.egp.merchant_reference, language: 'en' });
    expect(order).to.deep.equal({
      merchant_reference: ORDERS.egp.merchant_reference,
      amount: ORDERS.egp.amount,
      currency: 'EGP',
      description: ORDERS.egp.description,
    });
    const [request] = network.requestsTo('/order');
    expect(request!.method).to.equal('POST');
  });

  it('refuses a command other than AUTHORIZATION or PURCHASE before sending anything', async () => {
    const client = new EndpointClient(ENDPOINT);
    const body = { merchant_reference: ORDERS.egp.merchant_reference, language: 'en' as const, command: 'AUTHORISATION' as 'PURCHASE' };
    const error = await failureOf(client.request(hostedPageCall, body));
    expect(error.kind).to.equal('invalid_request');
    expect(error.field).to.equal('command');
    expect(network.endpointRequests).to.have.length(0);
  });

  it('leaves the rest of the body to the endpoint, whose refusal names the field', async () => {
    const client = new EndpointClient(ENDPOINT);
    const error = await failureOf(client.request(orderCall, { merchant_reference: 'not valid!', language: 'en' }));
    expect(error.kind).to.equal('refused');
    expect(error.code).to.equal('invalid_request');
    expect(error.field).to.equal('merchant_reference');
    expect(network.endpointRequests).to.have.length(1);
  });

  it('reports an answer that breaks the result schema as invalid_response', async () => {
    network.use(http.post(`${ENDPOINT}/order`, () => HttpResponse.json({ merchant_reference: 'x', amount: 'lots' })));
    const error = await failureOf(new EndpointClient(ENDPOINT)
      .request(orderCall, { merchant_reference: 'x', language: 'en' }));
    expect(error.kind).to.equal('invalid_response');
  });

  it('reports a refusal with the endpoint’s code and field', async () => {
    const error = await failureOf(new EndpointClient(ENDPOINT)
      .request(orderCall, { merchant_reference: 'nobody', language: 'ar' }));
    expect(error.kind).to.equal('refused');
    expect(error.code).to.equal('unknown_order');
    expect(error.details.httpStatus).to.equal(404);
  });

  it('reads Retry-After from a refusal (seconds or an HTTP date)', async () => {
    const refusal = { error: { code: 'otp_resend_limited', message: 'wait' } };
    network.use(http.post(`${ENDPOINT}/order`, () => HttpResponse.json(refusal, { status: 429, headers: { 'retry-after': '120' } })));
    const inSeconds = await failureOf(new EndpointClient(ENDPOINT).request(orderCall, { merchant_reference: 'x', language: 'en' }));
    expect(inSeconds.retryAfterSeconds).to.equal(120);
    const at = new Date(Date.now() + 300_000).toUTCString();
    network.use(http.post(`${ENDPOINT}/order`, () => HttpResponse.json(refusal, { status: 429, headers: { 'retry-after': at } })));
    const byDate = await failureOf(new EndpointClient(ENDPOINT).request(orderCall, { merchant_reference: 'x', language: 'en' }));
    expect(byDate.retryAfterSeconds).to.be.within(298, 301);
  });

  it('reports an HTTP failure without the error shape as unavailable, and a network failure as network', async () => {
    network.use(http.post(`${ENDPOINT}/order`, () => new HttpResponse('Bad gateway', { status: 502 })));
    const unavailable = await failureOf(new EndpointClient(ENDPOINT)
      .request(orderCall, { merchant_reference: 'x', language: 'en' }));
    expect(unavailable.kind).to.equal('unavailable');
    network.endpointUnreachable();
    const offline = await failureOf(new EndpointClient(ENDPOINT)
      .request(orderCall, { merchant_reference: 'x', language: 'en' }));
    expect(offline.kind).to.equal('network');
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const client = new EndpointClient('https://shop.example/pg', {
      fetch: async (input) => {
        seen.push(String(input));
        return Response.json({ merchant_reference: 'r1', amount: 100, currency: 'EGP' });
      },
    });
    expect((await client.request(orderCall, { merchant_reference: 'r1', language: 'en' })).amount).to.equal(100);
    expect(seen).to.deep.equal(['https://shop.example/pg/order']);
  });

  it('sends the shop’s order token as the pg-order-token header, and no such header without one', async () => {
    const seen: (string | null)[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      seen.push(new Headers(init?.headers).get('pg-order-token'));
      return Response.json({ merchant_reference: 'r1', amount: 100, currency: 'EGP' });
    };
    await new EndpointClient(ENDPOINT, { fetch: fetchSpy, orderToken: 'tok-9f2c' }).request(orderCall, { merchant_reference: 'r1', language: 'en' });
    await new EndpointClient(ENDPOINT, { fetch: fetchSpy }).request(orderCall, { merchant_reference: 'r1', language: 'en' });
    expect(seen).to.deep.equal(['tok-9f2c', null]);
  });

  describe('in an element (EndpointController)', () => {
    it('uses the element’s current order token', async () => {
      const host = await fixture<ClientHost>(html`<test-client-host></test-client-host>`);
      expect(host.requests.client.orderToken).to.equal('');
      host.orderToken = 'tok-from-the-shop';
      expect(host.requests.client.orderToken).to.equal('tok-from-the-shop');
    });

    it('fires start, success and complete in that order and tracks the pending state', async () => {
      const host = await fixture<ClientHost>(html`<test-client-host></test-client-host>`);
      const types: string[] = [];
      for (const type of ['pg-request-start', 'pg-request-success', 'pg-request-error', 'pg-request-complete']) {
        document.addEventListener(type, (event) => event.composedPath()[0] === host && types.push(type));
      }
      const pending = host.requests.request(orderCall, { merchant_reference: ORDERS.egp.merchant_reference, language: 'en' });
      expect(host.requests.pending).to.equal(true);
      expect(host.requests.isPending('order')).to.equal(true);
      const outcome = await pending;
      expect(outcome.status).to.equal('success');
      expect(host.requests.pending).to.equal(false);
      expect(types).to.deep.equal(['pg-request-start', 'pg-request-success', 'pg-request-complete']);
    });

    it('fires error then complete, with the localized message and no request body', async () => {
      const host = await fixture<ClientHost>(html`<test-client-host></test-client-host>`);
      network.endpointUnreachable();
      const failed = oneEvent(host, 'pg-request-error') as Promise<PgRequestErrorEvent>;
      const completed = oneEvent(host, 'pg-request-complete') as Promise<PgRequestCompleteEvent>;
      const outcome = await host.requests.request(orderCall, { merchant_reference: 'r1', language: 'en' });
      const error = await failed;
      expect(outcome).to.include({ status: 'error', message: 'failed: network' });
      expect({ route: error.route, kind: error.kind, message: error.message }).to.deep.equal({
        route: 'order',
        kind: 'network',
        message: 'failed: network',
      });
      expect((await completed).outcome).to.equal('error');
    });

    it('sends nothing when pg-request-start is cancelled', async () => {
      const host = await fixture<ClientHost>(html`<test-client-host></test-client-host>`);
      host.addEventListener('pg-request-start', (event) => event.preventDefault());
      const outcome = await host.requests.request(orderCall, { merchant_reference: 'r1', language: 'en' });
      expect(outcome.status).to.equal('cancelled');
      expect(network.endpointRequests).to.have.length(0);
    });

    it('aborts a request in flight when the element leaves the page', async () => {
      const host = await fixture<ClientHost>(html`<test-client-host></test-client-host>`);
      const release = network.holdEndpoint();
      const completed = oneEvent(host, 'pg-request-complete') as Promise<PgRequestCompleteEvent>;
      const pending: Promise<RequestOutcome<unknown>> = host.requests.request(orderCall, {
        merchant_reference: ORDERS.egp.merchant_reference,
        language: 'en',
      });
      host.remove();
      const outcome = await pending;
      release();
      expect(outcome.status).to.equal('aborted');
      expect((await completed).outcome).to.equal('aborted');
      expect(host.requests.pending).to.equal(false);
    });
  });
});
