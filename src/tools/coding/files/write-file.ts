import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import type { Zod } from '../../zod-loader.js';
import { defineTool } from '../../define-tool.js';
import type { Tool, ToolContext, ToolOutput, ToolPreview } from '../../../contracts/tool.js';
import { diskFileAccess, mtimeAfterWrite } from '../shared/file-access.js';
import { filePermission } from '../shared/file-permission.js';
import type { FileToolOptions } from '../shared/file-tool-options.js';
import { countLines, toLogicalText, type TextLayout } from '../shared/line-endings.js';
import type { FileReadTracker, ReadStatus } from '../shared/read-tracker.js';
import { formatBytes, loadTextFile, readOnlyReason } from '../shared/text-file.js';
import { resolveToolPath } from '../shared/tool-path.js';
import { unifiedDiff } from '../shared/unified-diff.js';
import { observedWrite } from '../shared/observe-write.js';

/** How much of a new file the approval prompt shows. */
const NEW_FILE_PREVIEW_LINES = 40;

const parameters = (z: Zod) => z.object({ path: z.string().min(1), content: z.string() });
type WriteArgs = z.infer<ReturnType<typeof parameters>>;

type Existing = { kind: 'new' } | { kind: 'text'; text: string; layout: TextLayout; mode: number } | { kind: 'other'; size: number; mode: number };
type WritePlan = { ok: true; absolute: string; shown: string; existing: Existing } | { ok: false; error: string };

export function createWriteFileTool(options: FileToolOptions, tracker: FileReadTracker): Tool {
  const plan = (args: WriteArgs, context: ToolContext) => planWrite(args, context, options, tracker);
  return defineTool({
    name: 'write_file',
    description:
      'Create a file or overwrite it entirely with content, creating parent folders. An existing file must have been read first. Reports new or overwritten, with line counts. To change part of a file, use edit_file.',
    parameters,
    readOnly: false,
    permission: filePermission('edit', ['edit', 'write']),
    async preview(args, context): Promise<ToolPreview> {
      const planned = await plan(args, context);
      return planned.ok ? describeWrite(planned.shown, planned.existing, args.content) : { error: planned.error };
    },
    async execute(args, context): Promise<ToolOutput> {
      const planned = await plan(args, context);
      if (!planned.ok) return { output: planned.error, isError: true };
      const { absolute, shown, existing } = planned;
      const bytes = Buffer.from(args.content, 'utf8');
      return observedWrite(options.observeWrite, absolute, context, async () => {
        await (options.files ?? diskFileAccess).write(absolute, bytes, existing.kind === 'new' ? {} : { mode: existing.mode });
        tracker.record(absolute, bytes, await mtimeAfterWrite(absolute));
        const after = countLines(args.content);
        const size = formatBytes(bytes.length);
        if (existing.kind === 'new') return `Created ${shown} (${lineCount(after)}, ${size}).`;
        const before = existing.kind === 'text' ? String(countLines(existing.text)) : 'non-text';
        return `Overwrote ${shown} (${before} → ${lineCount(after)}, ${size}).`;
      });
    },
  });
}

async function planWrite({ path }: WriteArgs, context: ToolContext, options: FileToolOptions, tracker: FileReadTracker): Promise<WritePlan> {
  const resolved = await resolveToolPath(path, context, options, true);
  if (!resolved.ok) return { ok: false, error: resolved.reason };
  const { absolute, relative: shown } = resolved;
  const info = await stat(absolute).catch(() => undefined);
  if (!info) return { ok: true, absolute, shown, existing: { kind: 'new' } };
  if (info.isDirectory()) return { ok: false, error: `${shown} is a directory; write_file needs a file path.` };
  const mode = info.mode & 0o7777;
  const readOnly = readOnlyReason(shown, mode);
  if (readOnly) return { ok: false, error: readOnly };
  const loaded = await loadTextFile(absolute, shown, options.files);
  if (loaded.ok) {
    const stale = staleReason(shown, tracker.status(absolute, loaded.file.bytes), countLines(loaded.file.text));
    if (stale) return { ok: false, error: stale };
  }
  const existing: Existing = loaded.ok ? { kind: 'text', text: loaded.file.text, layout: loaded.file.layout, mode } : { kind: 'other', size: info.size, mode };
  return { ok: true, absolute, shown, existing };
}

/**
 * Overwriting a text file the agent has not seen, or one that changed since it did (the user
 * edited it, a command rewrote it), would silently throw that content away.
 */
function staleReason(shown: string, status: ReadStatus, lines: number): string | undefined {
  if (status === 'unread') return `${shown} already exists (${lineCount(lines)}) and has not been read in this session; read it with read_file before overwriting it, or change part of it with edit_file.`;
  if (status === 'changed') return `${shown} changed on disk since it was last read or written in this session (by the user or a command); read it again before overwriting it, so that change is not lost.`;
  return undefined;
}

function describeWrite(shown: string, existing: Existing, content: string): ToolPreview {
  const after = countLines(content);
  if (existing.kind === 'new') {
    const lines = content.split('\n');
    const head = lines.slice(0, NEW_FILE_PREVIEW_LINES).join('\n');
    const rest = after - NEW_FILE_PREVIEW_LINES;
    const detail = unifiedDiff(shown, '', head) + (rest > 0 ? `… ${rest} more line${rest === 1 ? '' : 's'}\n` : '');
    return { summary: `write ${shown} (new, ${lineCount(after)})`, detail };
  }
  if (existing.kind === 'other') {
    return { summary: `write ${shown} (overwrite, non-text → ${after} lines)`, detail: `Replaces a non-text file of ${formatBytes(existing.size)}.` };
  }
  const before = countLines(existing.text);
  const summary = `write ${shown} (overwrite, ${before}→${after} lines)`;
  // Both sides are compared without CRs and BOM, so an ending change is one note, not every line changed.
  const incoming = toLogicalText(content);
  const diff = unifiedDiff(shown, existing.text, incoming.text);
  const detail = layoutNote(existing.layout, incoming.layout) + (diff === '' ? 'No change to the content.' : diff);
  return { summary, detail };
}

function layoutNote(before: TextLayout, after: TextLayout): string {
  let note = '';
  if (before.eol !== after.eol) note += `Line endings change from ${before.eol.toUpperCase()} to ${after.eol.toUpperCase()}.\n`;
  if (before.bom !== after.bom) note += after.bom ? 'A UTF-8 BOM is added.\n' : 'The UTF-8 BOM is removed.\n';
  return note;
}

function lineCount(n: number): string {
  return `${n} line${n === 1 ? '' : 's'}`;
}
