/**
 * `pg-checkout/react`: the four elements in React 19's JSX, for TypeScript. Types only; bring them
 * in with `import type {} from 'pg-checkout/react'` beside `import 'pg-checkout/define'`.
 *
 * React 19 hands a custom element each prop as a DOM property when the element has one of that
 * name (`methods`, `merchantReference`), and as an attribute otherwise (`merchant-reference`); a
 * function prop named `on<event>` becomes a listener for `<event>` (`onpg-request-error`). So an
 * element takes its properties, its attributes and one `on…` prop per event it fires, each event
 * typed with its class.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PgElementTypings } from './elements.ts';

/** `onpg-request-error={(event) => …}`: a listener per event, given the event's class. */
type ReactEventProps<Events> = {
  [Name in keyof Events & string as `on${Name}`]?: (event: Events[Name]) => void;
};

type ReactElementProps<Typing extends PgElementTypings[keyof PgElementTypings]> = DetailedHTMLProps<
  HTMLAttributes<Typing['element']>,
  Typing['element']
> &
  Typing['properties'] &
  Typing['attributes'] &
  ReactEventProps<Typing['events']> & {
    /** React 19 passes `class` to a custom element as the attribute. */
    class?: string;
  };

/** The props of each element in JSX. */
export type PgReactElements = {
  [Tag in keyof PgElementTypings]: ReactElementProps<PgElementTypings[Tag]>;
};

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface IntrinsicElements extends PgReactElements {}
  }
}
