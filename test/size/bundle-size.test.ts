/**
 * The size budget, in bytes rather than time so it is deterministic: the published bundle
 * (`dist/bundle/`, all four elements with Lit, zod/mini and the locales, from
 * `vite build --mode bundle`) must stay within its budget, gzip -9. Runs after `npm run build`.
 *
 * The budget is a guard against growth, set just above today's size (about 53.2 kB). The product
 * target of 30 kB is NOT met yet; `npm run bench` reports it as missed in bench/results.md, with
 * where the bytes go. Lower this number as the bundle shrinks; never raise it to let growth pass.
 * (Raised once, from 48 kB, by issue 16: the embedded card page, the 3-D Secure dialog, saving a
 * card and a message per endpoint refusal, about 5.5 kB, which the old margin of 0.6 kB could not
 * hold. A decision for the lead, recorded in the commit.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

const GZIP_BUDGET_BYTES = 54 * 1024;
const PRODUCT_TARGET_BYTES = 30 * 1024;
const BUNDLE_DIR = root('dist/bundle');
const BUNDLE_ENTRY = 'pg-checkout.js';
const ELEMENT_TAGS = ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp'];

/** Every `./dist/…` file that `package.json` `exports` promises. */
function exportedDistFiles(): string[] {
  const manifest = JSON.parse(readFileSync(root('package.json'), 'utf8')) as { exports: unknown };
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/')) targets.push(value);
    } else if (value && typeof value === 'object') {
      for (const nested of Object.values(value)) collect(nested);
    }
  };
  collect(manifest.exports);
  return targets;
}

/**
 * True when the minified source calls something with `(tag, Identifier)`: the registration
 * `defineElement("pg-checkout", PgCheckout)`. A bare mention of the tag (a template, a lookup
 * table) does not count.
 */
function registers(source: string, tag: string): boolean {
  return new RegExp(`\\(\\s*[\`"']${tag}[\`"']\\s*,\\s*[\\w$]+\\s*\\)`).test(source);
}

function bundleFiles(): string[] {
  return readdirSync(BUNDLE_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
}

describe('the built package', () => {
  it('has every file that package.json exports points at', () => {
    const missing = exportedDistFiles().filter((target) => !existsSync(root(target)));
    assert.deepEqual(missing, [], `missing after \`npm run build\`: ${missing.join(', ')}`);
  });

  it('registers all four elements in the browser bundle', () => {
    // A registration the bundler dropped (e.g. a define module missing from package.json
    // `sideEffects`) leaves a bundle that is small, within budget, and useless.
    const source = readFileSync(`${BUNDLE_DIR}/${BUNDLE_ENTRY}`, 'utf8');
    const missing = ELEMENT_TAGS.filter((tag) => !registers(source, tag));
    assert.deepEqual(missing, [], `dist/bundle/${BUNDLE_ENTRY} does not register: ${missing.join(', ')}`);
  });

  it('builds the browser bundle as one self-contained file', () => {
    assert.deepEqual(bundleFiles(), [BUNDLE_ENTRY], 'dist/bundle should hold pg-checkout.js only (no split chunks)');
    const source = readFileSync(`${BUNDLE_DIR}/${BUNDLE_ENTRY}`, 'utf8');
    assert.doesNotMatch(source, /^\s*import\b[^(]/m, 'the bundle must not import other modules');
  });
});

describe('the size budget', () => {
  it(`keeps all four elements with Lit and the locales within ${GZIP_BUDGET_BYTES / 1024} kB gzip`, () => {
    const gzipped = bundleFiles().reduce(
      (sum, name) => sum + gzipSync(readFileSync(`${BUNDLE_DIR}/${name}`), { level: 9 }).length,
      0,
    );
    assert.ok(
      gzipped <= GZIP_BUDGET_BYTES,
      `dist/bundle is ${gzipped} bytes gzip (${(gzipped / 1024).toFixed(1)} kB), over the ` +
        `${GZIP_BUDGET_BYTES}-byte budget by ${gzipped - GZIP_BUDGET_BYTES} bytes ` +
        `(the product target, ${PRODUCT_TARGET_BYTES} bytes, is further still)`,
    );
  });
});
