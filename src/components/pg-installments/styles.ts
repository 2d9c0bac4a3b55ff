import { css } from '../shared/styles.ts';

/**
 * Layout of `<pg-installments>`; colours through `--pg-*` tokens, logical properties only.
 * (Comments live here, not in the CSS, which ships as written.)
 * - `.issuer`: The radio stays on its name's line; a reason why the bank cannot be chosen wraps
 * below.
 * - `th`, `td`: the element's only table (the plans), so plain selectors, which the phone layout's
 *   overrides beat by coming later.
 * - `@media (max-width: 30rem)`: on a phone a plan's text is longer than its select; where the
 *   browser lets a select be styled, it wraps instead of being cut off ("EGP 2,158.09 a mo"), and
 *   so do the options of its open list, which is as wide as the select rather than wider than the
 *   screen. A browser that knows no `::picker(select)` drops those rules and keeps its own select.
 *   Five columns of amounts do not fit a phone: each plan becomes a block, its radio and months
 *   over one line per figure, the figure's column name (`data-label`) at its start and the amount
 *   at its end. The column headers are hidden there (the labels say the same), the markup stays a
 *   table.
 */
export const installmentsStyles = css`
  .installments-container {
    display: flex;
    flex-direction: column;
    gap: var(--pg-space, 0.75rem);
    inline-size: 100%;
    background: var(--pg-installments-background, var(--pg-color-surface, #ffffff));
  }

  .title,
  .bank-title,
  .receipt-title {
    margin: 0;
    font-weight: 600;
  }

  .issuer-list {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .issuer {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem;
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 0.75rem;
    border: 1px solid var(--pg-color-outline, #7b8794);
    border-radius: var(--pg-radius-small, 0.25rem);
    cursor: pointer;
  }

  .issuer.selected {
    border-color: var(--pg-color-primary, #1d4ed8);
    box-shadow: inset 0 0 0 1px var(--pg-color-primary, #1d4ed8);
  }

  .issuer.unavailable {
    color: var(--pg-color-muted, #52606d);
    cursor: not-allowed;
  }

  .reason {
    flex-basis: 100%;
  }

  .issuer-logo {
    block-size: 1.5rem;
    inline-size: auto;
  }

  .full-width {
    inline-size: 100%;
  }

  table.full-width {
    border-collapse: collapse;
  }

  caption {
    text-align: start;
    font-weight: 600;
    padding-block-end: 0.25rem;
  }

  th,
  td {
    padding: 0.5rem;
    border-block-end: 1px solid var(--pg-color-outline, #7b8794);
    text-align: start;
  }

  tbody th {
    font-weight: 500;
  }

  tr.selected {
    background: var(--pg-plan-selected-background, var(--pg-color-selected, #e8effd));
  }

  @media (max-width: 30rem) {
    select.full-width,
    ::picker(select) {
      appearance: base-select;
    }

    ::picker(select) {
      max-inline-size: anchor-size(self-inline);
    }

    option {
      white-space: normal;
    }

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

  .bank {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
    padding: var(--pg-space, 0.75rem);
    border: 1px solid var(--pg-color-outline, #7b8794);
    border-radius: var(--pg-radius, 0.5rem);
  }

  .bank p {
    margin: 0;
  }

  .receipt-container {
    padding: var(--pg-space, 0.75rem);
    border-radius: var(--pg-radius, 0.5rem);
    background: var(--pg-receipt-background, var(--pg-color-surface-variant, #f1f4f8));
  }

  .receipt-container dl {
    display: grid;
    grid-template-columns: 1fr auto;
    gap: 0.25rem var(--pg-space, 0.75rem);
    margin: 0;
    margin-block-start: 0.5rem;
  }

  .receipt-container dl > div {
    display: contents;
  }

  .receipt-note {
    margin: 0;
    margin-block-start: 0.5rem;
  }

  .receipt-container dd {
    margin: 0;
    text-align: end;
    font-weight: 600;
  }

  div.unavailable {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }

  .unavailable p {
    margin: 0;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--pg-space, 0.75rem);
  }
`;
