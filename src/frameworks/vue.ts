/**
 * `pg-checkout/vue`: the four elements in Vue 3 templates, for vue-tsc and Vue's editor tooling.
 * Types only; bring them in with `import type {} from 'pg-checkout/vue'` (in `env.d.ts`, say).
 *
 * Vue sets a DOM property when the element has one of the prop's name and an attribute otherwise,
 * and listens for `@pg-request-error` as that DOM event. Following Vue's guide for custom elements
 * not built with Vue, each tag is declared in `GlobalComponents` as a constructor whose `$props`
 * lists what the element accepts and whose `$emit` lists the events it fires, each typed with its
 * class. Neither member exists on the element: they are read by the template type-checker only.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PgElementTypings } from './elements.ts';

type VueElement<Typing extends PgElementTypings[keyof PgElementTypings]> = new () => Typing['element'] & {
  /** @deprecated For template type-checking only: not a member of the element. */
  $props: HTMLAttributes & Typing['properties'] & PublicProps;
  /** @deprecated For template type-checking only: not a member of the element. */
  $emit: EmitFn<{ [Name in keyof Typing['events']]: (event: Typing['events'][Name]) => void }>;
};

/** Each element as a Vue template sees it. */
export type PgVueElements = {
  [Tag in keyof PgElementTypings]: VueElement<PgElementTypings[Tag]>;
};

declare module 'vue' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalComponents extends PgVueElements {}
}
