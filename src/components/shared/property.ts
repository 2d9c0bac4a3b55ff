/**
 * The reactive properties of the pg- elements, declared in each class's `static properties` (no
 * decorators: their helpers cost the bundle bytes). A public property names its reader
 * (property-readers.ts) as its `converter`; PgElement's `finalize` puts an accessor on the prototype
 * that runs every value set through that reader, and Lit wraps it. Its attribute is its name in
 * kebab case (`billNumber`: `bill-number`), which `finalize` sets and the custom-elements
 * manifest's config spells the same way; `attribute: false` declares none. Attributes reach the
 * property through the same reader (it is also the `converter`), so a property takes its
 * attribute's text as well as its own type: React 19 and Vue 3 set the property, not the
 * attribute, whenever the element has one of the prop's name.
 *
 * Internal state is `{ state: true, attribute: false }`: Lit reads the first, the custom-elements
 * manifest's analyzer the second (else it lists the state as an attribute). Each property keeps
 * its field declaration, with its type and doc comment, in the class body.
 */
import type { PropertyDeclaration } from 'lit';
import type { PropertyReader } from './property-readers.ts';

/** Lit's declaration, with a reader instead of a `type` hint. */
export interface ReadPropertyDeclaration<T> extends Omit<PropertyDeclaration<T>, 'converter' | 'type'> {
  readonly converter: PropertyReader<T>;
}

/** Internal reactive state: re-renders the element, has no attribute. */
export interface StateDeclaration {
  readonly state: true;
  readonly attribute: false;
}

/** A pg- element's `static properties`. */
export type ElementProperties = Readonly<Record<string, ReadPropertyDeclaration<unknown> | StateDeclaration>>;

/** Puts on `prototype` the accessor of `name` that runs every value set through `reader`. */
export function defineReadingAccessor(prototype: object, name: PropertyKey, reader: PropertyReader<unknown>): void {
  const value = Symbol();
  Object.defineProperty(prototype, name, {
    get(this: Record<symbol, unknown>) {
      return this[value];
    },
    set(this: Record<symbol, unknown>, given: unknown) {
      this[value] = reader.fromValue(given);
    },
    configurable: true,
    enumerable: true,
  });
}
