/**
 * `live()` for the property bindings of form controls (`.value`, `.checked`): sets the property
 * whenever the control's own value differs from the bound one (the customer typed something that
 * reads differently, or a choice was refused), not only when the bound value changed. Lit's
 * `live` directive, without the checks for attribute and child bindings it also serves, which
 * these elements never bind it to.
 */
import { noChange } from 'lit';
import { Directive, directive, type PropertyPart } from 'lit/directive.js';
import { setCommittedValue } from 'lit/directive-helpers.js';

class LiveProperty extends Directive {
  render(value: unknown): unknown {
    return value;
  }

  override update(part: PropertyPart, [value]: [unknown]): unknown {
    if (value === (part.element as unknown as Record<string, unknown>)[part.name]) return noChange;
    // Lit sets a property only when its value changed since the last render: make it see a change.
    setCommittedValue(part);
    return value;
  }
}

export const live = directive(LiveProperty);
