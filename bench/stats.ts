/** Small numeric helpers shared by the benchmark sections. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The value below which `fraction` of the samples fall (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Kilobytes as the targets count them: 1 kB = 1000 bytes (not KiB). */
export function formatBytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

export function formatMs(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(ms < 10 ? 2 : 1)} ms` : 'n/a';
}

export function formatRate(perSecond: number): string {
  return Number.isFinite(perSecond) ? `${Math.round(perSecond).toLocaleString('en-US')}/s` : 'n/a';
}

export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : 'n/a';
}
