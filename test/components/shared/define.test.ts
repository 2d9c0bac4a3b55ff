import { expect } from '@open-wc/testing';
import { LitElement } from 'lit';
import { defineElement } from '../../../src/components/shared/define.ts';
import '../../../src/define.ts';
import { PgCheckout, PgInstallments } from '../../../src/index.ts';

describe('guarded define()', () => {
  it('registers the elements once src/define.ts is imported', () => {
    expect(customElements.get('pg-checkout')).to.equal(PgCheckout);
    expect(customElements.get('pg-installments')).to.equal(PgInstallments);
  });

  it('does nothing when the same class is registered again', () => {
    expect(defineElement('pg-checkout', PgCheckout)).to.equal('already-defined');
  });

  it('warns and keeps the first definition when a second copy of the bundle registers its own class', () => {
    class SecondCopy extends LitElement {}
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      expect(() => defineElement('pg-checkout', SecondCopy)).not.to.throw();
      expect(defineElement('pg-checkout', SecondCopy)).to.equal('conflict');
    } finally {
      console.warn = warn;
    }
    expect(customElements.get('pg-checkout')).to.equal(PgCheckout);
    expect(String(warnings[0]?.[0])).to.contain('<pg-checkout> is already defined');
  });

});
