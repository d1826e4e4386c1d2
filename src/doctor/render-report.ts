import type { DoctorReport, ProbeResult, ProbeStatus } from './types.js';

const MARK: Record<ProbeStatus, string> = { pass: 'ok', warn: 'warn', fail: 'FAIL', skip: '-' };

/** The report as a plain-text table, then the recommendation. */
export function renderReport(report: DoctorReport): string {
  const { endpoint, recommendation } = report;
  const lines = [
    `vibe-agent doctor: ${endpoint.provider} ${endpoint.model} at ${endpoint.baseURL}`,
    '',
    'This machine',
    ...table(report.local),
    '',
    'The endpoint',
    ...table(report.probes),
    '',
    'Recommendation',
    `  protocol: ${recommendation.protocol}${recommendation.protocol === 'prompt-json' ? ' (--protocol prompt-json)' : ''}`,
    `  preset: ${recommendation.preset}`,
    ...(recommendation.contextWindow !== undefined ? [`  context window: ${recommendation.contextWindow} tokens`] : []),
    ...recommendation.notes.map((note) => `  - ${note}`),
    '  config (.vibe-agent/config.json or ~/.config/vibe-agent/config.json):',
    ...JSON.stringify(recommendation.config, null, 2).split('\n').map((line) => `    ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Only this machine's checks: what doctor shows when no endpoint is configured to probe. */
export function renderLocalOnly(local: ProbeResult[], why: string): string {
  return `${['vibe-agent doctor: no endpoint to probe', '', 'This machine', ...table(local), '', 'The endpoint', ...why.split('\n').map((line) => (line ? `  ${line}` : ''))].join('\n')}\n`;
}

function table(rows: ProbeResult[]): string[] {
  const width = Math.max(...rows.map((row) => row.label.length));
  return rows.map((row) => `  ${MARK[row.status].padEnd(4)}  ${row.label.padEnd(width)}  ${row.detail}`);
}

/** Exit status: any failed probe makes doctor fail, so scripts can gate on it. */
export function reportFailed(report: DoctorReport): boolean {
  return [...report.local, ...report.probes].some((probe) => probe.status === 'fail');
}
