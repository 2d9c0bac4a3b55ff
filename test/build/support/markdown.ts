/** Code blocks of the package's Markdown files, for the tests that check them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './typecheck.ts';

/** The text of every fenced block of `language` (```tsx, ```vue) in a Markdown file of the package. */
export function fencedBlocks(markdownFile: string, language: string): string[] {
  const markdown = readFileSync(join(packageRoot, markdownFile), 'utf8');
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  return [...markdown.matchAll(fence)].map((match) => match[1] ?? '');
}
