import { css } from '../shared/styles.ts';

/**
 * Layout of `<pg-checkout>`; colours through `--pg-*` tokens, logical properties only.
 * (Comments live here, not in the CSS, which ships as written.)
 * - `.outcome`: Stretched, as every outcome: the foundation's centred .failure must not reach a
 * declined one.
 */
export const checkoutStyles = css`
  .method-list {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .method {
    align-items: center;
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 0.75rem;
    border: 1px solid var(--pg-color-outline, #7b8794);
    border-radius: var(--pg-radius-small, 0.25rem);
    cursor: pointer;
  }

  .method.selected {
    border-color: var(--pg-color-primary, #1d4ed8);
    box-shadow: inset 0 0 0 1px var(--pg-color-primary, #1d4ed8);
  }

  .pay-form {
    display: flex;
    flex-direction: column;
    gap: var(--pg-space, 0.75rem);
  }

  .note,
  .loading {
    margin: 0;
  }

  .confirm {
    margin-block-start: var(--pg-space, 0.75rem);
  }

  .outcome {
    display: flex;
    flex-direction: column;
    align-items: stretch;
    gap: calc(var(--pg-space, 0.75rem) / 2);
    padding: var(--pg-space, 0.75rem);
    border: 1px solid var(--pg-color-outline, #7b8794);
    border-inline-start-width: 4px;
    border-radius: var(--pg-radius-small, 0.25rem);
  }

  .outcome.success {
    border-inline-start-color: var(--pg-color-primary, #1d4ed8);
  }

  .outcome.failure,
  .outcome.cancelled {
    border-inline-start-color: var(--pg-color-error, #b42318);
  }

  .outcome:focus-visible {
    outline-width: 3px;
  }

  .outcome-title {
    margin: 0;
    font-size: 1.15em;
  }

  .outcome p {
    margin: 0;
  }

  .outcome .retry {
    align-self: flex-start;
  }

  .see-order {
    display: inline-flex;
    align-items: center;
    min-block-size: 2.75rem;
  }
`;
