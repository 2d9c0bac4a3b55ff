import { css } from '../shared/styles.ts';

/**
 * Layout of `<pg-financing-otp>`; colours through `--pg-*` tokens, logical properties only.
 * (Comments live here, not in the CSS, which ships as written.)
 * - `th`, `td`: the element's only table (the tenures), so plain selectors, which the phone
 *   layout's overrides beat by coming later.
 * - `@media (max-width: 30rem)`: four columns of amounts do not fit a phone: each tenure becomes a
 *   block, its radio and months over one line per figure, the figure's column name (`data-label`)
 *   at its start and the amount at its end. The column headers are hidden there (the labels say
 *   the same), the markup stays a table.
 */
export const financingOtpStyles = css`
  .financing,
  .step {
    display: flex;
    flex-direction: column;
    gap: var(--pg-space, 0.75rem);
  }

  .title {
    margin: 0;
    font-size: 1.125em;
    font-weight: 600;
  }

  .progress {
    margin: 0;
    color: var(--pg-color-muted, #52606d);
    font-size: 0.875em;
  }

  .step[aria-busy='true'] {
    cursor: progress;
  }

  .summary {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: calc(var(--pg-space, 0.75rem) / 2) var(--pg-space, 0.75rem);
    margin: 0;
  }

  .summary dt {
    color: var(--pg-color-muted, #52606d);
  }

  .summary dd {
    margin: 0;
  }

  .otp-input {
    max-inline-size: 12rem;
    font-size: 1.25em;
    letter-spacing: 0.3em;
    font-variant-numeric: tabular-nums;
  }

  .resend {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .countdown {
    color: var(--pg-color-muted, #52606d);
    font-variant-numeric: tabular-nums;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .actions .Pay {
    inline-size: auto;
    flex: 1 1 12rem;
  }

  .link-button {
    border-color: transparent;
    background: transparent;
    padding-inline: 0.5rem;
  }

  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }

  table.full-width {
    inline-size: 100%;
    border-collapse: collapse;
  }

  caption {
    text-align: start;
    font-weight: 600;
    margin-block-end: calc(var(--pg-space, 0.75rem) / 2);
  }

  th,
  td {
    padding: 0.5rem;
    border-block-end: 1px solid var(--pg-color-outline, #7b8794);
    text-align: start;
  }

  tr.selected {
    background: var(--pg-tenure-selected-background, var(--pg-color-selected, #e8efff));
  }

  th label {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    min-block-size: 2.75rem;
    font-weight: 600;
    cursor: pointer;
  }

  @media (max-width: 30rem) {
    thead {
      display: none;
    }

    tr,
    th,
    td {
      display: block;
      border: 0;
    }

    tr {
      border-block-end: 1px solid var(--pg-color-outline, #7b8794);
    }

    td {
      text-align: end;
    }

    td::before {
      content: attr(data-label);
      float: inline-start;
    }
  }

  .result {
    display: flex;
    flex-direction: column;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .result .title:focus {
    outline: none;
  }
`;
