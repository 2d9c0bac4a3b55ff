/**
 * Styles every element starts from. Colours, spacing, radii and type come from `--pg-*` custom
 * properties in three tiers: a component token (`--pg-pay-background`) falls back to a system
 * token (`--pg-color-primary`), which falls back to a literal. Logical properties only, so Arabic
 * needs no second stylesheet. themes/default.css lists every system token.
 * (Comments live here, not in the CSS, which ships as written.)
 * - `input:not([type='checkbox'], [type='radio']), select`: A percentage inline size keeps a
 * field's own size (20 characters, over 300 px with some system fonts) from setting how narrow the
 * element can be; the card form shrinks below 200 px.
 */
import { unsafeCSS, type CSSResult } from 'lit';

/**
 * The elements' `css` tag: a style sheet in the cascade layer `pg`. Unlayered rules beat layered
 * ones, so a theme file given to `theme-href` (a <link> in the shadow root, which the cascade
 * places before the adopted styles) overrides the element's own rules of equal specificity. Its
 * `${…}` may only be numbers (its type refuses anything else): Lit's own `css` also takes other
 * `css` results and checks each value at run time, which none of our styles needs and which,
 * with its error message, weighed 0.13 kB gzip in the bundle's entry. The bundle build still
 * tightens these templates (bundle-templates.ts finds them by the tag's name).
 */
export function css(strings: TemplateStringsArray, ...values: number[]): CSSResult {
  return unsafeCSS(`@layer pg{${values.reduce((text, value, index) => text + value + strings[index + 1], strings[0]!)}}`);
}

export const foundationStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
    color: var(--pg-color-on-surface, #1f2933);
    font-family: var(--pg-font-family, system-ui, 'Segoe UI', Roboto, 'Noto Sans Arabic', Tahoma, sans-serif);
    font-size: var(--pg-font-size, 1rem);
    line-height: 1.5;
  }

  :host([hidden]) {
    display: none;
  }

  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  .frame {
    display: flex;
    flex-direction: column;
    gap: var(--pg-space, 0.75rem);
    padding: var(--pg-frame-padding, var(--pg-space, 0.75rem));
    border-radius: var(--pg-radius, 0.5rem);
    background: var(--pg-frame-background, var(--pg-color-surface, #ffffff));
  }

  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }

  .ltr {
    direction: ltr;
    unicode-bidi: isolate;
  }

  fieldset {
    margin: 0;
    padding: 0;
    border: none;
    min-inline-size: 0;
  }

  legend {
    padding: 0;
    margin-block-end: calc(var(--pg-space, 0.75rem) / 2);
    font-weight: 600;
  }

  .floatl {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    margin-block-end: var(--pg-space, 0.75rem);
  }

  label {
    font-weight: 500;
  }

  .hint {
    color: var(--pg-color-muted, #52606d);
    font-size: 0.875em;
  }

  input:not([type='checkbox'], [type='radio']),
  select {
    inline-size: 100%;
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 0.75rem;
    border: 1px solid var(--pg-field-border-color, var(--pg-color-outline, #7b8794));
    border-radius: var(--pg-field-radius, var(--pg-radius-small, 0.25rem));
    background: var(--pg-field-background, var(--pg-color-field, #ffffff));
    color: inherit;
    font: inherit;
  }

  input[dir='ltr'] {
    text-align: start;
  }

  input[aria-invalid='true'],
  select[aria-invalid='true'] {
    border-color: var(--pg-color-error, #b42318);
  }

  input[type='checkbox'],
  input[type='radio'] {
    inline-size: 1.125rem;
    block-size: 1.125rem;
    accent-color: var(--pg-color-primary, #1d4ed8);
  }

  .check {
    display: flex;
    align-items: flex-start;
    gap: 0.5rem;
  }

  .check > label {
    min-block-size: 2.75rem;
  }

  :focus-visible {
    outline: 2px solid var(--pg-color-focus, #1d4ed8);
    outline-offset: 2px;
  }

  .error {
    margin: 0;
    color: var(--pg-color-error, #b42318);
    font-size: 0.875em;
  }

  button {
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 1.25rem;
    border: 1px solid var(--pg-color-primary, #1d4ed8);
    border-radius: var(--pg-radius-small, 0.25rem);
    background: var(--pg-color-surface, #ffffff);
    color: var(--pg-color-primary, #1d4ed8);
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }

  .Pay {
    inline-size: 100%;
    border-color: var(--pg-pay-background, var(--pg-color-primary, #1d4ed8));
    background: var(--pg-pay-background, var(--pg-color-primary, #1d4ed8));
    color: var(--pg-pay-color, var(--pg-color-on-primary, #ffffff));
  }

  button[aria-disabled='true'] {
    cursor: progress;
    opacity: 0.75;
  }

  .failure {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--pg-space, 0.75rem);
  }

  .muted {
    color: var(--pg-color-muted, #52606d);
  }
`;
