/**
 * The TSX snippets of the README (and of docs/elements.md) compile for a user of the built
 * package: each ```tsx block is type-checked against `dist/types` (through the package's
 * `exports`) and @types/react, strictly. A snippet that stops compiling, or typings that stop
 * matching the snippet, fail here. (The Vue snippets are checked with vue-tsc in
 * framework-types.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fencedBlocks } from './support/markdown.ts';
import { typeCheck } from './support/typecheck.ts';

const snippetsOf = (file: string, prefix: string) =>
  fencedBlocks(file, 'tsx').map((snippet, index) => [`${prefix}-snippet-${index + 1}.tsx`, snippet] as const);
const snippets = new Map([...snippetsOf('README.md', 'readme'), ...snippetsOf('docs/elements.md', 'elements-doc')]);

describe("the README's TSX snippets (and docs/elements.md's)", () => {
  // One program for all of them: the type-checker's start-up (DOM, React, Lit) is the cost.
  const { errors } = typeCheck(Object.fromEntries(snippets));

  it('are there to check', () => {
    assert.ok([...snippets.keys()].some((name) => name.startsWith('readme-')), 'README.md has a ```tsx block');
  });

  for (const name of snippets.keys()) {
    it(`compile against the built package and @types/react (${name})`, () => {
      assert.deepEqual(
        errors.filter((error) => error.startsWith(`${name}:`) || !/^[\w./-]+\.tsx?:/.test(error)),
        [],
      );
    });
  }

  it('leave no error in the package\'s own declarations', () => {
    assert.deepEqual(errors.filter((error) => error.startsWith('dist/')), []);
  });
});
