/**
 * `live()` for the property bindings of form controls (`.value`, `.checked`): sets the property
 * whenever the control's own value differs from the bound one (the customer typed something that
 * reads differently, or a choice was refused), not only when the bound value changed. Lit's
 * `live` directive, without the checks for attribute and child bindings it also serves, which
 * these elements never bind it to; it sets the property itself, so it needs none of Lit's
 * internal helpers (`setCommittedValue`).
 */
import { noChange } from 'lit';
import { Directive, directive, type PropertyPart } from 'lit/directive.js';

class LiveProperty extends Directive {
  render(value: unknown): unknown {
    return value;
  }

  override update(part: PropertyPart, [value]: [unknown]): unknown {
    const element = part.element as unknown as Record<string, unknown>;
    // Lit would set a property only when its value changed since the last render: set it here.
    if (value !== element[part.name]) element[part.name] = value;
    return noChange;
  }
}

export const live = directive(LiveProperty);
