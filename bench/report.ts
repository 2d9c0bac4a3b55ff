/**
 * The shape every benchmark section hands back, and the writer of `bench/results.md`: one table of
 * targets (figure, target, met or why not) followed by each section's details.
 */

/** A figure that the issue sets a target for. `met` is undefined when the figure could not be measured. */
export interface TargetRow {
  readonly figure: string;
  readonly measured: string;
  readonly target: string;
  readonly met: boolean | undefined;
  /** Why a target was missed or not measured; shown in the summary. */
  readonly why?: string;
}

export interface Table {
  readonly caption?: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface SectionResult {
  readonly title: string;
  /** What was measured and how, in a sentence or two. */
  readonly method: string;
  readonly tables: readonly Table[];
  readonly targets: readonly TargetRow[];
  readonly notes: readonly string[];
}

export interface Environment {
  readonly date: string;
  readonly os: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memory: string;
  readonly load: string;
  readonly versions: readonly (readonly [string, string])[];
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderTable(table: Table): string {
  const lines: string[] = [];
  if (table.caption) lines.push(`*${table.caption}*`, '');
  lines.push(`| ${table.headers.map(escapeCell).join(' | ')} |`);
  lines.push(`|${table.headers.map(() => '---').join('|')}|`);
  for (const row of table.rows) lines.push(`| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

function metCell(met: boolean | undefined): string {
  if (met === undefined) return 'n/a';
  return met ? 'yes' : '**no**';
}

export function renderResults(environment: Environment, sections: readonly SectionResult[], options: { complete: boolean }): string {
  const out: string[] = [];
  out.push('# Benchmark results', '');
  out.push(
    'Written by `npm run bench` (`bench/run.ts`); do not edit by hand. Figures are from one run on the ' +
      'machine below; they move with the machine and with whatever else it was running, so compare ratios ' +
      'rather than absolute numbers. A target that is missed is reported as missed, with the reason.',
    '',
  );
  if (!options.complete) out.push('> **Partial or quick run**: not every section ran with its full loop counts.', '');
  out.push('## Machine and versions', '');
  out.push(
    renderTable({
      headers: ['', ''],
      rows: [
        ['Date', environment.date],
        ['OS', environment.os],
        ['CPU', `${environment.cpu} (${environment.cores} logical cores)`],
        ['Memory', environment.memory],
        ['Load', environment.load],
        ...environment.versions.map(([name, version]) => [name, version]),
      ],
    }),
    '',
  );
  out.push('## Targets', '');
  const targets = sections.flatMap((section) => section.targets);
  out.push(
    renderTable({
      headers: ['Figure', 'Measured', 'Target', 'Met?', 'Why not'],
      rows: targets.map((row) => [row.figure, row.measured, row.target, metCell(row.met), row.met ? '' : (row.why ?? '')]),
    }),
    '',
  );
  for (const section of sections) {
    out.push(`## ${section.title}`, '', section.method, '');
    for (const table of section.tables) out.push(renderTable(table), '');
    if (section.notes.length > 0) {
      for (const note of section.notes) out.push(`- ${note}`);
      out.push('');
    }
  }
  return out.join('\n');
}
