import { expect } from '@open-wc/testing';
import type { CspReport } from '../support/csp-page.ts';
import { startNetwork, type TestNetwork } from '../support/network.ts';

describe('under a strict Content Security Policy (no unsafe-inline, no unsafe-eval)', () => {
  let network: TestNetwork;

  before(async () => {
    network = await startNetwork();
  });

  after(() => network.reset());

  it('renders, loads theme files and completes the redirect, card and installments flows without a violation', async () => {
    const iframe = document.createElement('iframe');
    iframe.title = 'strict CSP page';
    const report = new Promise<CspReport>((resolve) => {
      window.addEventListener('message', function listen(event: MessageEvent<CspReport>) {
        if (event.source !== iframe.contentWindow || event.data?.type !== 'csp-report') return;
        window.removeEventListener('message', listen);
        resolve(event.data);
      });
    });
    iframe.src = '/test/components/support/csp-page.html';
    document.body.append(iframe);
    try {
      const result = await report;
      expect(result.error).to.equal(undefined);
      expect(result.canarySeen, 'the policy is in force (an inline style was refused)').to.equal(true);
      expect(result.violations).to.deep.equal([]);
      expect(result.inlineStyles).to.equal(0);
      expect(result.themeApplied).to.equal(true);
      expect(result.posts).to.have.length(3);
      for (const post of result.posts) expect(post).to.match(/:https:\/\/sandbox\.pg\.test\/FortAPI\/paymentPage:signed$/);
    } finally {
      iframe.remove();
    }
  });
});
