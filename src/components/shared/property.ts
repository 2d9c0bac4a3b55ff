/**
 * `@property()` for the pg- elements: Lit's decorator over an accessor that runs every value set
 * through the property's reader (property-readers.ts). Attributes reach the property through the
 * same reader (it is also the `converter`), so a property takes its attribute's text as well as its
 * own type: React 19 and Vue 3 set the property, not the attribute, whenever the element has one of
 * the prop's name.
 *
 * Lit wraps an accessor it finds on the prototype, so this needs no override of Lit's internals.
 * Written for the experimental decorators the project compiles with (see tsconfig.json).
 */
import type { PropertyDeclaration, ReactiveElement } from 'lit';
import { property as litProperty } from 'lit/decorators.js';
import type { PropertyReader } from './property-readers.ts';

/** Lit's declaration, with a reader instead of a `type` hint. */
export interface ReadPropertyDeclaration<T> extends Omit<PropertyDeclaration<T>, 'converter' | 'type'> {
  readonly converter: PropertyReader<T>;
}

export function property<T>(options: ReadPropertyDeclaration<T>) {
  return (proto: ReactiveElement, name: string): void => {
    const value = Symbol(name);
    Object.defineProperty(proto, name, {
      get(this: Record<symbol, unknown>) {
        return this[value];
      },
      set(this: Record<symbol, unknown>, given: unknown) {
        this[value] = options.converter.fromValue(given);
      },
      configurable: true,
      enumerable: true,
    });
    litProperty(options)(proto, name);
  };
}
