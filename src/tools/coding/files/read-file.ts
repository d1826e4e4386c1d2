import type { Zod } from '../../zod-loader.js';
import { defineTool } from '../../define-tool.js';
import type { Tool, ToolOutput } from '../../../contracts/tool.js';
import { filePermission } from '../shared/file-permission.js';
import type { FileToolOptions } from '../shared/file-tool-options.js';
import { numberLine } from '../shared/number-lines.js';
import type { FileReadTracker } from '../shared/read-tracker.js';
import { formatBytes, loadTextFile } from '../shared/text-file.js';
import { resolveToolPath, withReadRoots } from '../shared/tool-path.js';
import { readImage } from './read-image.js';

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Below the registry's default 30,000-character cap, so a read is never cut in the middle. */
export const MAX_READ_CHARS = 25_000;

const parameters = (z: Zod) =>
  z.object({
    path: z.string().min(1),
    // An explicit maximum, else zod emits Number.MAX_SAFE_INTEGER into every request.
    offset: z.number().int().min(1).max(1e9).optional(),
    limit: z.number().int().min(1).max(1e9).optional(),
  });

export function createReadFileTool(options: FileToolOptions, tracker: FileReadTracker): Tool {
  return defineTool({
    name: 'read_file',
    description:
      'Read a UTF-8 text file as lines numbered like cat -n: up to limit (default 2000) lines from offset (1-based, default 1); lines over 2000 characters are cut. A footer gives size, total lines and the offset to read next. A PNG, JPEG, GIF or WebP comes back as an image. Refuses other binaries and directories.',
    parameters,
    readOnly: true,
    permission: filePermission('read', ['read']),
    async execute({ path, offset, limit }, context): Promise<ToolOutput> {
      const resolved = await resolveToolPath(path, context, withReadRoots(options), false);
      if (!resolved.ok) return { output: resolved.reason, isError: true };
      const picture = await readImage(resolved.absolute, resolved.relative, options.acceptsImages ?? true);
      if (picture) return picture;
      const loaded = await loadTextFile(resolved.absolute, resolved.relative, options.files);
      if (!loaded.ok) return { output: loaded.reason, isError: true };
      const { file } = loaded;
      tracker.record(resolved.absolute, file.bytes, file.mtimeMs);
      return renderLines(resolved.relative, file.text, file.size, offset ?? 1, limit ?? DEFAULT_READ_LIMIT);
    },
  });
}

function renderLines(shown: string, text: string, size: number, offset: number, limit: number): ToolOutput {
  if (text === '') return `[${shown}: empty file, 0 lines, ${formatBytes(size)}]`;
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const total = lines.length;
  const facts = `${shown}: ${total} line${total === 1 ? '' : 's'}, ${formatBytes(size)}`;
  if (offset > total) return { output: `offset=${offset} is past the end of ${shown}, which has ${total} line${total === 1 ? '' : 's'}.`, isError: true };

  const out: string[] = [];
  let chars = 0;
  let cut = 0;
  let last = offset - 1;
  const end = Math.min(total, offset - 1 + limit);
  for (let index = offset - 1; index < end; index++) {
    // Mixed line-ending files keep their CRs in the text; they are not part of what the model should copy.
    let line = (lines[index] as string).replace(/\r$/, '');
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} characters]`;
      cut++;
    }
    const numbered = numberLine(index + 1, line);
    if (out.length > 0 && chars + numbered.length + 1 > MAX_READ_CHARS) break;
    out.push(numbered);
    chars += numbered.length + 1;
    last = index + 1;
  }

  const budget = last < end ? ` (output is limited to ${MAX_READ_CHARS.toLocaleString('en-US')} characters)` : '';
  const range = `Showing lines ${offset}-${last}${budget}`;
  const more = last < total ? `; to read further, use offset=${last + 1}` : '';
  const cutNote = cut > 0 ? ` ${cut} line${cut === 1 ? '' : 's'} over ${MAX_LINE_CHARS} characters cut.` : '';
  return `${out.join('\n')}\n[${facts}. ${range}${more}.${cutNote}]`;
}
