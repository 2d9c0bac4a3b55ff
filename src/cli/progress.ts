/**
 * A progress bar on stderr, drawn only when stderr is a terminal (never into a log or a pipe, and
 * never on stdout, which carries results). `fraction` undefined (no measure of progress) draws the
 * text alone, never an empty or guessed bar.
 */
import type { Io } from './command.ts';

export interface Progress {
  update(fraction: number | undefined, text: string): void;
  done(): void;
}

const silent: Progress = { update: () => {}, done: () => {} };

export function progressBar(io: Io, label: string): Progress {
  const stream = io.stderr;
  if (!stream.isTTY) return silent;
  const width = Math.max(10, Math.min(30, (stream.columns ?? 80) - label.length - 40));
  let drawn = false;
  return {
    update(fraction, text) {
      if (fraction === undefined) {
        // Nothing measured: the text alone, never an empty bar that reads as 0 %.
        stream.write(`\r\x1b[2K${label}: ${text}`);
        drawn = true;
        return;
      }
      const share = Math.max(0, Math.min(1, fraction));
      const filled = Math.round(share * width);
      const percent = `${String(Math.round(share * 100)).padStart(3)}%`;
      stream.write(`\r\x1b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent} ${text}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
