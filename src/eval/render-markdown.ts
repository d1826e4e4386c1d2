import type { EvalSummary } from './summarize.js';

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** The summaries as a Markdown table (the overall row last, in bold). */
export function renderMarkdown(summaries: EvalSummary[]): string {
  const rows = summaries.map((row) => {
    const cells = [
      row.task,
      `${row.passes}/${row.runs}`,
      percent(row.passRate),
      `${percent(row.ci95[0])}–${percent(row.ci95[1])}`,
      row.meanTurns.toFixed(1),
      `${row.inputTokens} / ${row.outputTokens}`,
      row.cost === null ? 'n/a' : `$${row.cost.toFixed(4)}`,
      `${(row.meanWallMs / 1000).toFixed(1)} s`,
      Object.entries(row.failures).map(([reason, count]) => `${reason} ×${count}`).join(', '),
    ];
    return `| ${(row.task === 'overall' ? cells.map((cell) => (cell ? `**${cell}**` : cell)) : cells).join(' | ')} |`;
  });
  return [
    '| task | passed | rate | 95% CI (Wilson) | turns (mean) | tokens in / out | cost | wall (mean) | failures |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n';
}
