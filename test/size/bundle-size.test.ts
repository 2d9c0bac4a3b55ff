/**
 * The size budgets, in bytes rather than time so that they are deterministic: the published bundle
 * folder (`dist/bundle/`, from `vite build --mode bundle`: the entry `pg-checkout.js` and the chunks it
 * imports relatively), gzip -9, each file compressed on its own as a server sends it. Runs after
 * `npm run build`.
 *
 * Four budgets, in kB of 1000 bytes as the product targets count them (`npm run bench` reports them
 * against those targets, with Adyen beside them). Issue 25 set each to what it reached plus 0.3 kB of
 * headroom, left for the features being built beside it (the embedded card mode's amount on its
 * button, a "Processing…" state), which add a few hundred bytes:
 * - the initial load: the entry and the chunks it imports statically; since issue 25 the entry is
 *   one file holding Lit, the shared code, the card form and the four elements' classes (23.1 kB).
 *   It is also what an English page with `<pg-checkout mode="drop-in">` downloads before the
 *   customer acts (target 15 kB, not met): `<pg-checkout>` reads its order's answer without the
 *   contract's schemas (src/core/order-answer.ts), which load with the customer's first request
 *   (test/components/pg-checkout/schemas-on-demand.test.ts checks that in a browser);
 * - the initial load with the contract's shapes (no zod since the third round): what a page downloads as an element that
 *   checks its first answer with them connects (`<pg-installments>` asks for its plans; 31.3 kB);
 * - everything an English page could load (every chunk but the Arabic catalogs; target 30 kB, not
 *   met: 54.7 kB);
 * - the whole folder, Arabic included (61.0 kB).
 * The figures are the folder's as built: the templates without their source indentation, and the
 * styles without the spaces CSS never needs (bundle-templates.ts, 1.1 kB of the folder). Issue 24's
 * features used the headroom (the embedded card's Pay button, Processing…, the hints under a decline):
 * with them the English page is 54.9 kB and the folder 61.4 kB.
 * Issue 25's third round lowered all four to what it reached plus about 0.2 kB: the page reads the
 * endpoint's answers with the core's shapes instead of zod (the answer checks 8.2 → 1.8 kB; the
 * entry holds the order's shape, +0.26 kB), and the elements lost Lit's decorators, `classMap` and
 * `live` (their own few lines instead) and a card-number pattern built at load: initial load
 * 22.5 kB, with the answer checks 24.3 kB, English page 47.6 kB, folder 54.0 kB.
 * Its fourth round lowered them again, by code that shrinks rather than moves (docs/decisions.md):
 * initial load 21.9 kB, with the answer checks 23.7 kB, English page 47.0 kB, folder 53.5 kB.
 * Lower these numbers as the bundle shrinks; never raise one to let growth pass. One exception,
 * recorded: issue 23 raised the folder's by 0.1 kB (an optional security code where the account has
 * CVV suppression, in both languages, and hosted-checkout installments); the English page stayed
 * within its budget by moving the choice of a flat plan's variant to the endpoint. A second, in issue
 * 25's fifth round: the English page's and the folder's by 0.15 and 0.25 kB, for fixes a security
 * review found, not features: `<pg-checkout>` and `<pg-installments>` send the amount they show, so
 * that the endpoint charges that amount or nothing, and `<pg-checkout>` tells the customer, in both
 * languages, when the order's amount changed; `<pg-installments>` drops the card form it posted to
 * the gateway when the page comes back from the back-forward cache, and may pay again (measured
 * 47,373 and 53,875 bytes). A third, the folder's by 50 bytes: at the phone number's ceiling of
 * wrong codes `<pg-financing-otp>` says so in both languages and counts down to the next code,
 * instead of asking for a new code the endpoint would refuse; the element's five copies of the
 * failed-step markup became one to pay for it, which kept the English page within its budget
 * (measured 47,388 and 53,928 bytes). A fourth, the English page's and the folder's by 0.3 kB each,
 * for defects a review at 375 px found, not features: the installments plans table and the
 * financing tenures table were wider than a phone (each plan or tenure is now a block there, +71
 * and part of +147), financing tenures show their total payable (the rest of +147), the open plan
 * list no wider than the screen (+34), focus kept on the bill after it is issued and when it
 * expires (+61), the card number whole at 327 px (−6) (measured 47,682 and 54,233 bytes).
 * Issue 25's sixth round lowered all four again, by code that shrinks (docs/decisions.md): the
 * contract's chunk no longer builds an object of all its exports, the templates lose the quotes,
 * self-closing slashes and leading zeros HTML and CSS never need, the card form's handlers are
 * private, shorter forms of the same code in the shared element code, and the one message only
 * `<pg-financing-otp>` says in its own catalogs: initial load 22,070 → 21,752 bytes, with the
 * answer checks 23,874 → 23,208, English page 47,688 → 46,922, folder 54,245 → 53,473 (built with
 * `<pg-checkout>` and `<pg-bill-voucher>` as they were); the budgets are these plus about 0.2 kB.
 * A fifth exception, in the same stop, for a defect, not a feature: the drop-in kept offering card,
 * installments and financing while the order waited for its cash bill (each then refused by the
 * endpoint), and offered nothing after the bill expired. It now keeps the bill in view, says why the
 * other methods wait, offers them again when the bill expires, and remembers the bill across a
 * reload, in both languages: +240 B initial load, +208 B English page, +315 B folder (measured
 * 21,992, with the answer checks 23,469, 47,130 and 53,788 bytes); each budget is 0.05 to 0.1 kB
 * above that, still below the last stop's. Then +63 B initial load, +74 B English page, +77 B
 * folder for two fixes a review found: the bill note named by every method's radio, an expiry
 * written "+0200" read right (+21 B initial load); and the bill's storage key in a module of its
 * own, so that `<pg-checkout>` alone no longer loads `<pg-bill-voucher>` (1.8 kB gzip less for a
 * page importing only `<pg-checkout>`, and its first render; +42 B here, gzip's sensitivity to the
 * order of the same code). Measured 22,055, 47,204 and 53,865 bytes; the initial load's budget
 * is back at the last stop's, the other two stay below theirs.
 * A sixth exception, the English page's and the folder's by 0.6 and 0.7 kB, for a defect, not a
 * feature: `<pg-bill-voucher>` said "expired unpaid" at the expiry, and after a reload past it, of a
 * bill the customer had paid at the counter, and the drop-in then offered the other methods again.
 * It now asks the endpoint before saying so, and when the customer comes back to the tab, and says
 * paid, or "not confirmed yet" when it cannot ask, in both languages (three states, their text, the
 * event; all in the voucher's on-demand view, the initial load −15 B). Measured 22,040, with the
 * answer checks 23,496, 47,819 and 54,594 bytes. Then +15 B initial load, +42 B English page and
 * folder: no "Try again" beside "This order has already been paid" in `<pg-checkout>` and
 * `<pg-financing-otp>` (measured 22,055, 47,861 and 54,636 bytes).
 * A seventh exception, all four by 0.35 kB, for the one lever left on issue 25's phone targets:
 * `<pg-checkout>` takes over the first screen a shop's server writes into its declarative shadow
 * root (src/server/first-screen.ts), keeping what the customer typed there, the focus, and the
 * server's form on screen until the element can show the order's amount, in both languages
 * (src/components/pg-checkout/first-screen.ts, `render`, `CardFormController.restore`): +336 B on
 * each (measured 22,391, with the answer checks 23,847, 48,197 and 54,972 bytes). With that first
 * screen no script is on the wire when the customer can type and pay (`npm run bench`, phone).
 * An eighth exception, the English page's by 0.15 kB and the folder's by 0.2 kB, for a defect, not a
 * feature: after a cash bill expired unpaid and a card paid the order under its next attempt
 * (`<order>.pg2`), a page reloaded with the bill still remembered said "This bill has been paid".
 * The status route now names the attempt its money is under, and `<pg-bill-voucher>` says the order
 * was paid another way and the bill is owed nothing, in both languages, and tells the drop-in
 * (`pg-bill-expire` with `orderPaid`), which keeps the other methods away. Measured 22,404 (+13),
 * with the answer checks 23,864 (+17), 48,342 (+145) and 55,178 (+206) bytes.
 * A ninth exception, 0.05 kB on each budget, for an accessibility defect: after a decline on the
 * embedded card page, **Try again** left the focus on the page's body while the new card page
 * loaded, so a keyboard or screen-reader user had to find the form again. The new page's frame now
 * takes the focus once it is shown. Measured 22,460 (+56), with the answer checks 23,920, 48,398 and
 * 55,234 bytes.
 * A tenth exception, about 0.35 kB on each budget, for the time a phone waits for the order's
 * amount: a tab's first `Intl.NumberFormat` loads the browser's number-formatting data, 170 to
 * 270 ms of a frozen page on the bench's phone (4× CPU slowdown), right after the card form became
 * usable. Amounts in the region's currencies and Arabic numbers are now written without it, the
 * same text (`formatMoney`, `groupDigits`, an ISO 4217 exponent table; docs/decisions.md). On the
 * phone the amount followed the usable form by a median 244 ms before, 111 ms after (12 loads a
 * case, interleaved). Measured 22,788 (+328), with the answer checks 24,248, 48,756 and 55,589 bytes.
 * An eleventh, the English page's by 0.1 kB and the folder's by 0.16 kB, for what a customer audit
 * found unexplained: the installments summary's total payable is more than the Pay button's amount.
 * A line under the summary now says, in both languages, that the card is charged the order amount
 * and the bank collects the total payable (the on-demand view and its Arabic catalog only). Measured
 * 48,841 (+85) and 55,746 (+157) bytes; the financing steps counted as three, not four, add 12 B.
 */
import { registersElement } from '../../bundle-chunks.ts';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = (relative: string) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

const INITIAL_BUDGET_BYTES = 22_830;
const WITH_SCHEMAS_BUDGET_BYTES = 24_290;
const ENGLISH_BUDGET_BYTES = 48_900;
const FOLDER_BUDGET_BYTES = 55_800;
const BUNDLE_DIR = root('dist/bundle');
const BUNDLE_ENTRY = 'pg-checkout.js';
const ELEMENT_TAGS = ['pg-checkout', 'pg-installments', 'pg-bill-voucher', 'pg-financing-otp'];

/** Every `./dist/…` file that `package.json` `exports` promises. */
function exportedDistFiles(): string[] {
  const manifest = JSON.parse(readFileSync(root('package.json'), 'utf8')) as { exports: unknown };
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/') && !value.includes('*')) targets.push(value);
    } else if (value && typeof value === 'object') {
      for (const nested of Object.values(value)) collect(nested);
    }
  };
  collect(manifest.exports);
  return targets;
}

/** The bundle's JS files, by path relative to the folder (`pg-checkout.js`, `chunks/…`). */
function bundleFiles(): Map<string, string> {
  const names = readdirSync(BUNDLE_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
  return new Map(names.map((name) => [name.split('\\').join('/'), readFileSync(`${BUNDLE_DIR}/${name}`, 'utf8')]));
}

/** Every module specifier a file imports, statically (`import … from "…"`) or on demand (`import("…")`). */
function specifiers(source: string): { static: string[]; dynamic: string[] } {
  return {
    static: [...source.matchAll(/(?:^|[;}])\s*(?:import|export)\s*(?:[\w$*{},\s]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]!),
    // The minifier writes an on-demand import's path as a template literal: import(`./chunks/x.js`).
    dynamic: [...source.matchAll(/\bimport\(\s*(["'`])([^"'`$]+)\1\s*\)/g)].map((m) => m[2]!),
  };
}

/** The files named and every file they reach through static imports. */
function staticClosure(files: Map<string, string>, names: readonly string[]): string[] {
  const reached = new Set<string>();
  const visit = (name: string): void => {
    if (reached.has(name) || !files.has(name)) return;
    reached.add(name);
    for (const specifier of specifiers(files.get(name)!).static) visit(posix.join(posix.dirname(name), specifier));
  };
  for (const name of names) visit(name);
  return [...reached];
}

/** A file holding zod: zod's objects keep their `_zod` property once minified. */
const holdsZod = (source: string) => /\b_zod\b/.test(source);
/** The contract's shapes (src/core/endpoint-results.ts): the chunk is named after its module. */
const isContract = (name: string) => /(^|\/)endpoint-results-[\w-]+\.js$/.test(name);

const isArabicCatalog = (name: string) => /(^|\/)messages\.ar-[\w-]+\.js$/.test(name);
const gzipped = (files: Map<string, string>, names: Iterable<string>) =>
  [...names].reduce((sum, name) => sum + gzipSync(files.get(name)!, { level: 9 }).length, 0);
/** 1 kB = 1000 bytes, as the targets count. */
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

describe('the built package', () => {
  it('has every file that package.json exports points at', () => {
    const missing = exportedDistFiles().filter((target) => !existsSync(root(target)));
    assert.deepEqual(missing, [], `missing after \`npm run build\`: ${missing.join(', ')}`);
  });

  it('registers all four elements in the bundle entry itself', () => {
    // A registration the bundler dropped (e.g. a define module missing from package.json
    // `sideEffects`) leaves a bundle that is small, within budget, and useless.
    const source = bundleFiles().get(BUNDLE_ENTRY) ?? '';
    const missing = ELEMENT_TAGS.filter((tag) => !registersElement(source, tag));
    assert.deepEqual(missing, [], `dist/bundle/${BUNDLE_ENTRY} does not register: ${missing.join(', ')}`);
  });

  it('builds the bundle as a folder whose files import only each other, by relative paths that exist', () => {
    const files = bundleFiles();
    assert.ok(files.size > 1, 'the views and catalogs are chunks of their own');
    const onDemand = specifiers(files.get(BUNDLE_ENTRY)!).dynamic;
    assert.ok(onDemand.length >= 3, `the entry's on-demand imports are found (views, catalogs, schemas): ${onDemand.join(', ')}`);
    for (const [name, source] of files) {
      const { static: imported, dynamic } = specifiers(source);
      for (const specifier of [...imported, ...dynamic]) {
        assert.match(specifier, /^\.\.?\//, `${name} imports ${specifier}: not relative`);
        assert.ok(files.has(posix.join(posix.dirname(name), specifier)), `${name} imports ${specifier}, which is not in the folder`);
      }
    }
  });
});

describe('the size budgets', () => {
  const files = bundleFiles();
  const initial = staticClosure(files, [BUNDLE_ENTRY]);
  const schemas = [...files.keys()].filter(isContract);
  const withSchemas = staticClosure(files, [BUNDLE_ENTRY, ...schemas]);

  it('has the contract\'s schemas in a chunk of their own', () => {
    assert.equal(schemas.length, 1, 'the size test no longer finds the contract\'s schemas (endpoint-results-*.js)');
  });

  it('holds no zod in any file: the page reads the endpoint\'s answers with the core\'s shapes', () => {
    assert.deepEqual([...files].filter(([, source]) => holdsZod(source)).map(([name]) => name), []);
  });

  it('loads no Arabic catalog and no view on demand before it is needed', () => {
    assert.deepEqual(initial.filter(isArabicCatalog), [], 'an Arabic catalog is in the initial load');
    const lazy = initial.filter((name) => /(installments|bill-voucher|financing-otp)-view-[\w-]+\.js$/.test(name));
    assert.deepEqual(lazy, [], 'a view of installments, voucher or financing is in the initial load');
    assert.ok(!initial.some(isContract), 'the contract\'s schemas are in the initial load');
    assert.ok(!initial.some((name) => /framed-flow/.test(name)), 'the payment frames and 3-D Secure dialog are in the initial load');
  });

  it(`keeps the initial load (entry and its static imports; all the drop-in downloads before the customer acts) within ${kB(INITIAL_BUDGET_BYTES)} gzip`, () => {
    const size = gzipped(files, initial);
    assert.ok(size <= INITIAL_BUDGET_BYTES, `initial load ${initial.join(', ')}: ${size} bytes gzip (${kB(size)}), over by ${size - INITIAL_BUDGET_BYTES}`);
  });

  it(`keeps the initial load with the contract's schemas within ${kB(WITH_SCHEMAS_BUDGET_BYTES)} gzip`, () => {
    const size = gzipped(files, withSchemas);
    assert.ok(
      size <= WITH_SCHEMAS_BUDGET_BYTES,
      `with the schemas ${withSchemas.join(', ')}: ${size} bytes gzip (${kB(size)}), over by ${size - WITH_SCHEMAS_BUDGET_BYTES}`,
    );
  });

  it(`keeps everything an English page can load within ${kB(ENGLISH_BUDGET_BYTES)} gzip`, () => {
    const size = gzipped(files, [...files.keys()].filter((name) => !isArabicCatalog(name)));
    assert.ok(size <= ENGLISH_BUDGET_BYTES, `English page: ${size} bytes gzip (${kB(size)}), over by ${size - ENGLISH_BUDGET_BYTES}`);
  });

  it(`keeps the whole folder, Arabic catalogs included, within ${kB(FOLDER_BUDGET_BYTES)} gzip`, () => {
    const size = gzipped(files, files.keys());
    assert.ok(size <= FOLDER_BUDGET_BYTES, `dist/bundle: ${size} bytes gzip (${kB(size)}), over by ${size - FOLDER_BUDGET_BYTES}`);
  });
});
