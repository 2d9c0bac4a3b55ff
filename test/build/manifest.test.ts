/**
 * `npm run build` writes custom-elements.json from the elements' doc comments. Editors, Storybook
 * and framework wrappers read it, so every element must be in it with its shared attributes,
 * its events and the spec's class names as parts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface Declaration {
  readonly tagName?: string;
  readonly attributes?: readonly { name: string; type?: { text: string } }[];
  readonly events?: readonly { name: string }[];
  readonly cssParts?: readonly { name: string }[];
}

const manifest = JSON.parse(readFileSync(new URL('../../custom-elements.json', import.meta.url), 'utf8')) as {
  modules: { declarations?: Declaration[] }[];
};
const elements = new Map(
  manifest.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.tagName).map((d) => [d.tagName, d]),
);

describe('custom-elements.json', () => {
  for (const tag of ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp']) {
    it(`documents <${tag}> with the shared attributes and request events`, () => {
      const element = elements.get(tag);
      assert.ok(element, `${tag} is in the manifest`);
      const attributes = (element.attributes ?? []).map((attribute) => attribute.name);
      for (const name of ['endpoint', 'merchant-reference', 'language', 'theme-href']) {
        assert.ok(attributes.includes(name), `${tag} documents the ${name} attribute`);
      }
      const events = (element.events ?? []).map((event) => event.name);
      assert.ok(events.includes('pg-request-start'), `${tag} documents pg-request-start`);
    });
  }

  it('documents the spec class names as parts of the card and installments elements', () => {
    const parts = (tag: string) => (elements.get(tag)?.cssParts ?? []).map((part) => part.name);
    for (const name of ['credit-card-container', 'floatl', 'half1', 'half2', 'error', 'Pay', 'Visa', 'MasterCard']) {
      assert.ok(parts('pg-checkout').includes(name), `pg-checkout documents part ${name}`);
    }
    for (const name of ['installments-container', 'receipt-container', 'full-width', 'bank']) {
      assert.ok(parts('pg-installments').includes(name), `pg-installments documents part ${name}`);
    }
  });

  it('spells out the values of enumerated attributes, so editors can offer them', () => {
    const typeOf = (tag: string, name: string) => elements.get(tag)?.attributes?.find((attribute) => attribute.name === name)?.type?.text;
    // In the type-checker's order, which follows where in the program a literal first appears: compared as a set.
    const members = (text: string | undefined) => (text ?? '').split(' | ').sort();
    assert.deepEqual(members(typeOf('pg-checkout', 'mode')), ["'drop-in'", "'embedded'", "'merchant-page'", "'redirect'"]);
    assert.equal(typeOf('pg-checkout', 'intent'), "'pay' | 'save-card'");
    assert.match(typeOf('pg-checkout', 'card-mode') ?? '', /'embedded'/);
    assert.equal(typeOf('pg-checkout', 'language'), "'en' | 'ar'");
    assert.match(typeOf('pg-checkout', 'methods') ?? '', /^\(.*'voucher'.*\)\[\]$/);
    for (const [tag, element] of elements) {
      for (const attribute of element.attributes ?? []) {
        const outsideLiterals = (attribute.type?.text ?? '').replace(/'[^']*'/g, '');
        assert.doesNotMatch(outsideLiterals, /\b[A-Z][A-Za-z]+\b/, `${tag} ${attribute.name}: a type name where its values belong`);
      }
    }
  });
});
