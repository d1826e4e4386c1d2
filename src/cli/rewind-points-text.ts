import { filesChangedAt, type RewindPoint } from '../checkpoints/rewind-points.js';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import { oneLine } from './display/summarize.js';
import { visibleText } from './display/visible-text.js';

const NO_TIME = '—'.padEnd(19);

/** One row of `rewind --list` and the /rewind picker: number, time, prompt (first line) and the files it changed. */
export function describePoint(point: RewindPoint, files: string[] | undefined): string {
  const when = point.at ? point.at.slice(0, 19).replace('T', ' ') : NO_TIME;
  const what = point.kind === 'rewind' ? 'before a rewind (going here undoes it)' : `"${oneLine(visibleText(firstLine(point.prompt ?? '')), 50)}"${point.live ? '' : ' (rewound)'}`;
  return `  ${String(point.n).padStart(3)}  ${when}  ${what} · ${filesText(point, files)}`;
}

/** Every point's row, the files each changed looked up in the store. */
export async function describePoints(store: SessionCheckpoints, points: readonly RewindPoint[]): Promise<string[]> {
  const log = store.log.read();
  return Promise.all(points.map(async (point) => describePoint(point, await filesChangedAt(store.git, log, point).catch(() => undefined))));
}

/** How a summary names the point it went to. */
export function pointName(point: RewindPoint): string {
  return point.kind === 'rewind' ? `point ${point.n} (before a rewind)` : `point ${point.n}, before the prompt "${oneLine(visibleText(firstLine(point.prompt ?? '')), 50)}"`;
}

function filesText(point: RewindPoint, files: string[] | undefined): string {
  if (point.kind === 'prompt' && !point.own) return 'ran no tools';
  if (files === undefined) return 'files changed: unknown (the run did not record its end)';
  if (!files.length) return 'no files changed';
  const shown = files.slice(0, 3).map((path) => visibleText(path).replace(/\n/g, '\\n'));
  return `changed ${shown.join(', ')}${files.length > 3 ? ` +${files.length - 3} more` : ''}`;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
