/**
 * The framework typings of the built package (`pg-checkout/react`, `pg-checkout/vue`, and the
 * element typings in the main entry they are made from) tell the truth about the elements, take
 * nothing from a project that uses neither framework, and add no JavaScript.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { fencedBlocks } from './support/markdown.ts';
import { packageRoot, typeCheck } from './support/typecheck.ts';

interface ManifestElement {
  readonly tagName: string;
  readonly attributes?: readonly { name: string }[];
  readonly members?: readonly { kind: string; name: string; privacy?: string; readonly?: boolean; static?: boolean }[];
  readonly events?: readonly { name: string; description?: string }[];
}

const manifest = JSON.parse(readFileSync(join(packageRoot, 'custom-elements.json'), 'utf8')) as {
  modules: { declarations?: (Partial<ManifestElement> & { name: string })[] }[];
};
const elements = new Map(
  manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((declaration): declaration is ManifestElement & { name: string } => declaration.tagName !== undefined)
    .map((declaration) => [declaration.tagName, declaration]),
);

/** What custom-elements.json documents of an element: public settable fields, attributes, @fires events. */
function documented(tag: string) {
  const element = elements.get(tag);
  assert.ok(element, `${tag} is in custom-elements.json`);
  return {
    properties: (element.members ?? [])
      .filter((member) => member.kind === 'field' && (member.privacy ?? 'public') === 'public' && !member.readonly && !member.static && !member.name.startsWith('#'))
      .map((member) => member.name),
    attributes: (element.attributes ?? []).map((attribute) => attribute.name),
    // Events with a description are the @fires ones; the analyzer also guesses some from dispatch calls.
    events: (element.events ?? []).filter((event) => event.description).map((event) => event.name),
  };
}

/** Every element the manifest documents: each must have its typings. */
const TAGS = [...elements.keys()];

/** The elements a drop-in hosts. */
const HOSTED_BY_CHECKOUT = ['pg-installments', 'pg-bill-voucher', 'pg-financing-otp'];

/** The events a listener on an element hears: its own, and for a drop-in those its hosted elements fire and compose out. */
function heard(tag: string): string[] {
  if (tag !== 'pg-checkout') return documented(tag).events;
  const hosted = HOSTED_BY_CHECKOUT.flatMap((nested) => documented(nested).events);
  // `change` is not composed: it stays inside the drop-in's shadow root.
  return [...new Set([...documented(tag).events, ...hosted.filter((name) => name !== 'change')])];
}

const union = (names: readonly string[]) => (names.length > 0 ? names.map((name) => JSON.stringify(name)).join(' | ') : 'never');

/** The manifest's account of every element, as type assertions on the typings. */
function manifestChecks(): string {
  const checks = TAGS.flatMap((tag) => {
    const { properties, attributes } = documented(tag);
    const typing = `PgElementTypings['${tag}']`;
    const name = tag.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
    return [
      `export const ${name}Properties: Exactly<keyof ${typing}['properties'], ${union(properties)}> = true;`,
      `export const ${name}Attributes: Exactly<keyof ${typing}['attributes'], ${union(attributes)}> = true;`,
      `export const ${name}Events: Exactly<keyof ${typing}['events'], ${union(heard(tag))}> = true;`,
    ];
  });
  return [
    "import type { PgElementTypings } from 'pg-checkout';",
    '/** `true`, or [typed but not documented, documented but not typed], which `true` does not fit. */',
    'type Exactly<Typed, Documented> = [Exclude<Typed, Documented>, Exclude<Documented, Typed>] extends [never, never]',
    '  ? true',
    '  : [Exclude<Typed, Documented>, Exclude<Documented, Typed>];',
    `export const tags: Exactly<keyof PgElementTypings, ${union(TAGS)}> = true;`,
    ...checks,
  ].join('\n');
}

/** Props the elements take in JSX, and (each marked @ts-expect-error) props they refuse. */
const JSX_USES = `
  import type {} from 'pg-checkout/react';
  import type { PgBillIssueEvent, PgRequestErrorEvent } from 'pg-checkout';

  const onError = (event: PgRequestErrorEvent) => console.warn(event.route, event.kind, event.code);
  export const accepted = (
    <>
      <pg-checkout mode="drop-in" methods="card voucher" hide-remember-me language="ar" onpg-request-error={onError} />
      <pg-checkout methods={['voucher', 'card']} hideRememberMe merchantReference="order-1" class="checkout" />
      <pg-checkout onpg-bill-issue={(event: PgBillIssueEvent) => event.bill.billNumber} onpg-method-change={(event) => event.method} />
      <pg-installments plans-view="table" completion="hosted-checkout" cardSource="host" cardPrefix="51234567" required onchange={(event) => event.type} />
      <pg-bill-voucher amount={150000} expires={new Date()} bill-number="12345678901234" time-zone="Africa/Cairo" />
      <pg-bill-voucher amount="150000" expires="2026-12-01T18:00:00+02:00" />
      <pg-financing-otp amount="250000" max-otp-attempts={5} resendAfter="30" products={[]} onpg-financing-complete={(event) => event.outcome} />
    </>
  );

  // @ts-expect-error: a number is not a list of methods
  export const numberAsMethods = <pg-checkout methods={42} />;
  // @ts-expect-error: "dropin" is not a mode
  export const misspeltMode = <pg-checkout mode="dropin" />;
  // @ts-expect-error: the listener gets a PgRequestErrorEvent, not a MouseEvent
  export const wrongEvent = <pg-checkout onpg-request-error={(event: MouseEvent) => event.button} />;
  // @ts-expect-error: an amount is a number or its digits
  export const wordsAsAmount = <pg-bill-voucher amount="lots" />;
  // @ts-expect-error: products are a property only, with no attribute
  export const productsAsText = <pg-financing-otp products="Television" />;
  // @ts-expect-error: <pg-installments> has no \`methods\`
  export const unknownProperty = <pg-installments methods="card" />;
  // @ts-expect-error: a tag the package does not define
  export const unknownTag = <pg-wallet />;
`;

describe('the framework typings of the built package', () => {
  // One program for both files: the type-checker's start-up (DOM, React, Lit) is the cost.
  const { errors } = typeCheck({ 'typings-match-manifest.ts': manifestChecks(), 'typings-in-jsx.tsx': JSX_USES });
  const errorsIn = (file: string) => errors.filter((error) => !error.startsWith('typings-') || error.startsWith(`${file}:`));

  it('type every property, attribute and event custom-elements.json documents for each element, and nothing else', () => {
    assert.deepEqual(errorsIn('typings-match-manifest.ts'), []);
  });

  it('accept what the elements accept in JSX and refuse what they refuse', () => {
    assert.deepEqual(errorsIn('typings-in-jsx.tsx'), []);
  });

  it('leave a project that uses neither React nor Vue untouched', () => {
    const source = `
      import 'pg-checkout/define';
      import { PgCheckout, type PgCheckoutEventMap } from 'pg-checkout';
      export const methods: PgCheckout['methods'] = ['card'];
      export const listen = (el: PgCheckout, handler: (event: PgCheckoutEventMap['pg-request-error']) => void) =>
        el.addEventListener('pg-request-error', handler);
    `;
    const { program, errors } = typeCheck({ 'plain-project.ts': source }, { jsx: ts.JsxEmit.None });
    assert.deepEqual(errors, []);
    const frameworkFiles = program
      .getSourceFiles()
      .map((file) => relative(packageRoot, file.fileName))
      .filter((name) => /node_modules\/(react|react-dom|@types\/react|vue|@vue)\//.test(name) || name.includes('dist/types/frameworks/react') || name.includes('dist/types/frameworks/vue'));
    assert.deepEqual(frameworkFiles, []);
  });

  it('are types only: the react and vue entries have no JavaScript, and no built module refers to them', () => {
    const exports = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
    for (const entry of ['./react', './vue']) {
      const target = exports[entry] as Record<string, string>;
      assert.deepEqual(Object.keys(target), ['types'], `${entry} has a types condition only`);
      assert.ok(existsSync(join(packageRoot, target['types']!)), `${target['types']} is built`);
    }
    const modules = readdirSync(join(packageRoot, 'dist'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
    for (const name of modules) {
      assert.doesNotMatch(readFileSync(join(packageRoot, 'dist', name), 'utf8'), /frameworks\//, `dist/${name}`);
    }
  });

  describe('in Vue templates, checked by vue-tsc', () => {
    // Inside the package folder, so that 'pg-checkout' resolves to the package itself.
    const results = join(packageRoot, 'test-results');
    mkdirSync(results, { recursive: true });
    const folder = mkdtempSync(join(results, 'vue-typecheck-'));
    after(() => rmSync(folder, { recursive: true, force: true }));

    it("accept the Vue snippets of the README and docs, what the elements accept, and refuse what they refuse", async () => {
      const snippets = [...fencedBlocks('README.md', 'vue'), ...fencedBlocks('docs/elements.md', 'vue')];
      assert.ok(fencedBlocks('README.md', 'vue').length > 0, 'README.md has a ```vue block');
      snippets.forEach((snippet, index) => writeFileSync(join(folder, `DocSnippet${index + 1}.vue`), snippet));
      writeFileSync(join(folder, 'env.ts'), "import type {} from 'pg-checkout/vue';\n");
      writeFileSync(
        join(folder, 'Checks.vue'),
        `<script setup lang="ts">
import type { PgBillIssueEvent } from 'pg-checkout';
const remember = (event: PgBillIssueEvent) => event.bill.billNumber;
</script>

<template>
  <pg-checkout mode="drop-in" methods="card voucher" :hide-remember-me="true" language="ar" @pg-bill-issue="remember" />
  <pg-checkout :methods="['voucher', 'card']" merchant-reference="order-1" @pg-method-change="(event) => event.method" />
  <pg-installments plans-view="table" card-source="host" :card-prefix="'51234567'" required @change="(event) => event.type" />
  <pg-bill-voucher :amount="150000" :expires="new Date()" bill-number="12345678901234" />
  <pg-financing-otp amount="250000" :max-otp-attempts="5" :products="[]" @pg-financing-complete="(event) => event.outcome" />
  <!-- @vue-expect-error a number is not a list of methods -->
  <pg-checkout :methods="42" />
  <!-- @vue-expect-error "dropin" is not a mode -->
  <pg-checkout mode="dropin" />
  <!-- @vue-expect-error the listener gets a PgRequestErrorEvent, not a MouseEvent -->
  <pg-checkout @pg-request-error="(event: MouseEvent) => event.button" />
  <!-- @vue-expect-error an amount is a number or its digits -->
  <pg-bill-voucher amount="lots" />
</template>
`,
      );
      writeFileSync(
        join(folder, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            types: [],
            jsx: 'preserve',
            // The package's declarations are checked in the tests above; here the templates are.
            skipLibCheck: true,
          },
          include: ['*.ts', '*.vue'],
        }),
      );
      const vueTsc = join(packageRoot, 'node_modules', 'vue-tsc', 'bin', 'vue-tsc.js');
      const run = await promisify(execFile)(process.execPath, [vueTsc, '--noEmit', '-p', folder]).then(
        () => '',
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}` || 'vue-tsc failed',
      );
      assert.equal(run, '');
    });
  });
});
