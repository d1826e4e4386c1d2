import type { LeftAlone } from '../checkpoints/restore.js';
import type { RewindOutcome, RewindPlan } from '../checkpoints/rewind.js';
import { visibleText } from './display/visible-text.js';

/** What a rewind did, in lines: `target` names where it went, `undo` is the command that goes back. */
export function rewindSummary(plan: RewindPlan, outcome: RewindOutcome, where: { target: string; undo: string }): string[] {
  const lines = [`Rewound to ${where.target}.`];
  const files = outcome.files;
  if (!files && plan.files) lines.push('Files: none changed since, so none was touched.');
  if (files) {
    const touched = [...files.restored, ...files.removed];
    lines.push(`Files: ${files.restored.length} restored, ${files.removed.length} removed${touched.length ? `: ${touched.slice(0, 20).map(shownPath).join(', ')}${touched.length > 20 ? ', …' : ''}` : ''}.`);
  }
  if (plan.conversation) lines.push(plan.keepRecords === undefined ? 'The conversation could not be rewound: the session has no record of that turn.' : 'The conversation continues from there.');
  const leftAlone = outcome.files?.leftAlone ?? [];
  if (leftAlone.length) lines.push(describeLeftAlone(leftAlone));
  lines.push(`Undo this rewind with: ${where.undo}`);
  return lines;
}

/** "Left alone: 3 files: a.log (ignored when captured), big.bin (over the size limit), …" */
function describeLeftAlone(leftAlone: readonly LeftAlone[]): string {
  const shown = leftAlone.slice(0, 20).map((entry) => `${shownPath(entry.path)} (${entry.reason})`);
  const more = leftAlone.length > shown.length ? `, and ${leftAlone.length - shown.length} more` : '';
  return `Left alone: ${leftAlone.length} file${leftAlone.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}.`;
}

/** A file name as one visible line: a hostile name's control characters and newlines written out. */
function shownPath(path: string): string {
  return visibleText(path).replace(/\n/g, '\\n');
}
