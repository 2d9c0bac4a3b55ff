import { css } from '../shared/styles.ts';

/**
 * Layout of `<pg-bill-voucher>`; colours through `--pg-*` tokens, logical properties only. The
 * print rules turn the bill into a plain black-on-white slip: the number, amount, partner, expiry
 * date and instructions stay; buttons, the ticking countdown and the live region go.
 * (Comments live here, not in the CSS, which ships as written.)
 * - `.details`: Each row is a term over its value; rows flow into as many columns as the width
 * allows.
 * - `.bill-number.inline`: Inside a sentence (the expired notice) the number keeps the text size.
 * - `.bill-number .group + .group`: Groups are spaced by margins, not spaces, so a selection
 * copies the number as issued.
 * - `[lang='ar'] .instructions`: Step numbers in the digits of the page, as the amounts and dates
 * are.
 */
export const billVoucherStyles = css`
  .bill {
    display: flex;
    flex-direction: column;
    gap: var(--pg-space, 0.75rem);
    padding: var(--pg-space, 0.75rem);
    border: 1px solid var(--pg-bill-border-color, var(--pg-color-outline, #7b8794));
    border-radius: var(--pg-radius, 0.5rem);
    background: var(--pg-bill-background, var(--pg-color-surface, #ffffff));
  }

  .bill.expired {
    border-color: var(--pg-color-error, #b42318);
  }

  .title {
    margin: 0;
    font-size: 1.125em;
    font-weight: 600;
  }

  .details {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 14rem), 1fr));
    gap: var(--pg-space, 0.75rem);
    margin: 0;
  }

  /* The bill number has a row of its own: in a column as narrow as the others it would overflow. */
  .details > .row:first-child {
    grid-column: 1 / -1;
  }

  .details dt {
    color: var(--pg-color-muted, #52606d);
  }

  .details dd {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  .bill-number {
    font-family: var(--pg-bill-number-font-family, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    font-size: var(--pg-bill-number-font-size, 1.5em);
    font-weight: 700;
    letter-spacing: 0.04em;
  }

  .bill-number.inline {
    font-size: 1em;
  }

  .bill-number .group + .group {
    margin-inline-start: 0.5em;
  }

  .spoken {
    user-select: none;
  }

  .countdown {
    font-variant-numeric: tabular-nums;
    font-weight: 600;
  }

  .instructions {
    margin: 0;
    padding-inline-start: 1.25rem;
  }

  [lang='ar'] .instructions {
    list-style-type: arabic-indic;
  }

  .instructions-title {
    margin: 0;
    font-weight: 600;
  }

  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--pg-space, 0.75rem) / 2);
  }

  a.calendar {
    display: inline-flex;
    align-items: center;
    min-block-size: 2.75rem;
    padding-block: 0.5rem;
    padding-inline: 1.25rem;
    border: 1px solid var(--pg-color-primary, #1d4ed8);
    border-radius: var(--pg-radius-small, 0.25rem);
    color: var(--pg-color-primary, #1d4ed8);
    font-weight: 600;
    text-decoration: none;
  }

  @media print {
    :host {
      color: #000;
      background: #fff;
    }

    .frame,
    .bill {
      background: #fff;
      border-color: #000;
    }

    .details dt {
      color: #000;
    }

    button,
    a.calendar,
    .actions,
    .time-left,
    .status {
      display: none !important;
    }

    .bill-number:not(.inline) {
      font-size: 2em;
    }

    .bill {
      break-inside: avoid;
    }
  }
`;
