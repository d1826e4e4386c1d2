import type { ToolContext } from '../../../contracts/tool.js';
import { findClosestRegion } from './closest-match.js';
import { applyEdit, describeTolerances, stripLineNumbers } from './edit-text.js';
import type { FileToolOptions } from '../shared/file-tool-options.js';
import { toStoredText, type TextLayout } from '../shared/line-endings.js';
import { numberLines } from '../shared/number-lines.js';
import type { FileReadTracker, ReadStatus } from '../shared/read-tracker.js';
import { loadTextFile, readOnlyReason } from '../shared/text-file.js';
import { resolveToolPath } from '../shared/tool-path.js';
import { unifiedDiff } from '../shared/unified-diff.js';

export interface EditArgs {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** Everything needed to write the edit, or to show it for approval, computed without touching the file. */
export type EditPlan =
  | { ok: true; absolute: string; shown: string; stored: string; mode: number | undefined; diff: string; summary: string; report: string }
  | { ok: false; error: string };

const SHOWN_REGION_LINES = 40;

export async function planEdit(args: EditArgs, context: ToolContext, options: FileToolOptions, tracker: FileReadTracker): Promise<EditPlan> {
  if (args.old_string === args.new_string) return fail('old_string and new_string are identical, so the edit would change nothing.');
  const resolved = await resolveToolPath(args.path, context, options, true);
  if (!resolved.ok) return fail(resolved.reason);
  const { absolute, relative: shown } = resolved;
  const loaded = await loadTextFile(absolute, shown, options.files);
  if (!loaded.ok) {
    if (loaded.missing && args.old_string === '') return created(absolute, shown, args.new_string);
    const hint = loaded.missing ? ' To create it, use write_file (or edit_file with an empty old_string).' : '';
    return fail(loaded.reason + hint);
  }
  const { file } = loaded;
  const readOnly = readOnlyReason(shown, file.mode);
  if (readOnly) return fail(readOnly);
  const layout = file.layout;
  // The text is LF inside (unless mixed); what the model sends is brought to the same form.
  const normalize = (text: string) => (layout.eol === 'mixed' ? text : text.replaceAll('\r\n', '\n'));
  const oldString = normalize(args.old_string);
  const newString = normalize(args.new_string);
  if (oldString === '') {
    if (file.text !== '') return fail(`old_string is empty, but ${shown} is not. Give the exact text to replace, or use write_file to replace the whole file.`);
    return finish(absolute, shown, file.text, newString, layout, file.mode, `Wrote ${shown}, which was empty.`, 'was empty');
  }
  if (oldString === newString) return fail('old_string and new_string differ only in line endings, so the edit would change nothing.');

  const outcome = applyEdit(file.text, { oldString, newString, replaceAll: args.replace_all === true });
  if (!outcome.ok && outcome.kind === 'ambiguous') {
    const forgiving = outcome.tolerances.length ? ` (with ${describeTolerances(outcome.tolerances)})` : '';
    return fail(
      `old_string matches ${outcome.lines.length} places in ${shown}${forgiving}, at lines ${listLines(outcome.lines)}. ` +
        'Include more surrounding lines in old_string to make it unique, or set replace_all to true to replace every one.',
    );
  }
  if (!outcome.ok) return fail(notFound(shown, file.text, oldString, tracker.status(absolute, file.bytes)));

  if (outcome.text === file.text) {
    return fail(`new_string is the same as the text it would replace in ${shown} (${describeTolerances(outcome.tolerances) || 'exact match'}), so the file would not change.`);
  }
  const count = outcome.replacements;
  const where = count === 1 ? `line ${outcome.lines[0]}` : `lines ${listLines(outcome.lines)}`;
  const notes = [`${count} replacement${count === 1 ? '' : 's'} at ${where}.`];
  const forgiven = [describeTolerances(outcome.tolerances)].filter(Boolean);
  if (layout.eol === 'lf' && args.old_string.includes('\r\n')) forgiven.push("old_string's CRLF line endings matched the file's LF");
  if (forgiven.length) notes.push(`Matched with tolerance: ${forgiven.join('; ')}.`);
  if (layout.eol === 'crlf') notes.push('CRLF line endings kept.');
  return finish(absolute, shown, file.text, outcome.text, layout, file.mode, `Edited ${shown}: ${notes.join(' ')}`, `${count} replacement${count === 1 ? '' : 's'}`);
}

function created(absolute: string, shown: string, content: string): EditPlan {
  return finish(absolute, shown, '', content, { bom: false, eol: 'lf' }, undefined, `Created ${shown}.`, 'new file');
}

function finish(absolute: string, shown: string, before: string, after: string, layout: TextLayout, mode: number | undefined, report: string, what: string): EditPlan {
  const diff = unifiedDiff(shown, before, after);
  return { ok: true, absolute, shown, stored: toStoredText(after, layout), mode, diff, summary: `edit ${shown} (${what})`, report: `${report}\n${diff}` };
}

/** Line numbers for a message: a replace_all over a generated file can hit thousands. */
function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 20).join(', ');
  return lines.length > 20 ? `${shown} and ${lines.length - 20} more` : shown;
}

function fail(error: string): EditPlan {
  return { ok: false, error };
}

const STATUS_TEXT: Record<ReadStatus, (shown: string) => string> = {
  unread: (shown) => `You have not read ${shown} in this session: read it with read_file and copy old_string from it.`,
  unchanged: (shown) => `${shown} has not changed since you last read it, so old_string differs from what you read.`,
  changed: (shown) => `${shown} has changed since you last read it: read it again before editing.`,
};

function notFound(shown: string, text: string, oldString: string, status: ReadStatus): string {
  const head = `old_string was not found in ${shown}. ${STATUS_TEXT[status](shown)}`;
  const region = findClosestRegion(text, stripLineNumbers(oldString) ?? oldString);
  if (!region) return `${head}\nNothing in the file resembles old_string.`;
  const last = region.firstLine + region.lines.length - 1;
  const shownLines = region.lines.slice(0, SHOWN_REGION_LINES).map((line) => line.replace(/\r$/, '')).map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
  const more = region.lines.length > SHOWN_REGION_LINES ? `\n… ${region.lines.length - SHOWN_REGION_LINES} more lines` : '';
  const similar = Math.round(region.similarity * 100);
  const lines = last === region.firstLine ? `line ${last}` : `lines ${region.firstLine}-${last}`;
  return `${head}\nThe closest match is ${lines} (${similar}% similar):\n${numberLines(shownLines, region.firstLine)}${more}`;
}
