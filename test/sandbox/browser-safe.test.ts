import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const sandboxDir = join(import.meta.dirname, '../../src/sandbox');
const files = readdirSync(sandboxDir).filter((name) => name.endsWith('.ts'));
const importsOf = (name: string): string[] =>
  [...readFileSync(join(sandboxDir, name), 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1] ?? '');

describe('the sandbox gateway runs in browsers', () => {
  it('imports no node: module', () => {
    for (const name of files) {
      assert.deepEqual(importsOf(name).filter((specifier) => specifier.startsWith('node:')), [], name);
    }
  });

  it('imports msw only from msw.ts, and full zod nowhere', () => {
    for (const name of files) {
      const imports = importsOf(name);
      if (name !== 'msw.ts') assert.ok(!imports.some((specifier) => specifier.startsWith('msw')), name);
      assert.ok(!imports.includes('zod'), `${name} uses zod/mini, not zod`);
    }
  });
});
