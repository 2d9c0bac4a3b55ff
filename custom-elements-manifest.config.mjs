// `npm run manifest` writes custom-elements.json from the elements' doc comments.
export default {
  globs: ['src/components/**/*.ts'],
  exclude: ['src/components/**/*.styles.ts', 'src/components/**/styles.ts', 'src/components/**/messages.ts'],
  outdir: '.',
  litelement: true,
};
