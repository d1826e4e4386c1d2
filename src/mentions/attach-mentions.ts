import { lstat, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ImageRef } from '../contracts/messages.js';
import type { Authorize } from '../contracts/tool.js';
import { capText } from '../tools/cap-output.js';
import type { ToolRegistry } from '../tools/registry.js';
import { isGlobMention, parseMentions } from './parse-mentions.js';

/** A glob attaches at most this many files; the rest are named in the listing. */
export const MAX_GLOB_FILES = 20;
/** All of a prompt's attachments together; past it the middle is cut and kept whole for read_output. */
export const MAX_ATTACHED_CHARS = 60_000;

export interface MentionRun {
  /** The run's tools: mentions are read by its read_file and listed by its list_files, permission rules and all. */
  tools: ToolRegistry;
  authorize?: Authorize;
  workspace: string;
  signal: AbortSignal;
}

/** What one mention attached, for the user to see: `src/a.ts (120 lines)`. */
export interface AttachedNote {
  mention: string;
  what: string;
}

/** `section` goes after the prompt (see withAttachments), undefined when no text was attached; `images` ride beside it. */
export type AttachedText = { ok: true; section: string | undefined; images: ImageRef[]; attached: AttachedNote[] } | { ok: false; reason: string };

/**
 * The prompt with the text of the files its `@` mentions name, after the user's words and apart
 * from them: `@file` as read_file returns it (numbered lines, capped with its line count and the
 * offset to read on), `@folder/` and `@glob` as list_files lists them (a glob's first files read
 * too). Each goes through the registry as a call of that tool, so confinement, deny rules and
 * secret files are refused exactly as for the model's own calls. A picture (by its bytes, as
 * read_file tells) is attached as the image read_file returns. A mention of nothing on disk stays
 * text (`@user`; `me@example.com` is never one).
 * Read before the prompt hooks run (nothing is recorded for a prompt refused here); the section
 * joins the prompt the hooks return.
 */
export async function attachMentionedFiles(typed: string, run: MentionRun): Promise<AttachedText> {
  const paths = [...new Set(parseMentions(typed).map((mention) => mention.path))];
  if (paths.length === 0) return { ok: true, section: undefined, images: [], attached: [] };
  const blocks: string[] = [];
  const images: ImageRef[] = [];
  const attached: AttachedNote[] = [];
  const call = callTools(run);
  for (const path of paths) {
    const block = isGlobMention(path) ? await globBlock(path, call) : await pathBlock(path, run.workspace, call);
    if (block === undefined) continue;
    if (!block.ok) return { ok: false, reason: `@${path}: ${block.reason} Nothing was sent.` };
    blocks.push(...block.blocks);
    images.push(...block.images);
    attached.push({ mention: `@${path}`, what: block.what });
  }
  if (blocks.length === 0) return { ok: true, section: undefined, images, attached };
  const section = `<attachments>\n${blocks.join('\n')}\n</attachments>`;
  const { text, stored } = capText(section, MAX_ATTACHED_CHARS, { fresh: true });
  if (stored) await run.tools.outputs.put(stored.id, stored.text);
  return { ok: true, section: text, images, attached };
}

/** The user's words, then the attachments: one user message, stored as sent, so a resumed session sends the same bytes. */
export function withAttachments(input: string, section: string | undefined): string {
  return section === undefined ? input : `${input}\n\n${section}`;
}

/** What the user is shown for each attachment: `attached @src/a.ts (12 lines, 300 bytes)`. */
export function attachedLines(attached: readonly AttachedNote[]): string[] {
  return attached.map((note) => `attached ${note.mention} (${note.what})`);
}

type Block = { ok: true; blocks: string[]; images: ImageRef[]; what: string } | { ok: false; reason: string };
type CallTool = (name: string, args: Record<string, unknown>) => Promise<{ ok: true; text: string; images: ImageRef[] } | { ok: false; reason: string }>;

function callTools(run: MentionRun): CallTool {
  let count = 0;
  return async (name, args) => {
    if (!run.tools.get(name)) return { ok: false, reason: `the ${name} tool is not enabled in this run, so mentions cannot be attached.` };
    const result = await run.tools.invoke({ id: `mention-${++count}`, name, arguments: JSON.stringify(args) }, { workspace: run.workspace, signal: run.signal, ...(run.authorize ? { authorize: run.authorize } : {}) });
    return result.isError ? { ok: false, reason: result.content } : { ok: true, text: result.content, images: result.images ?? [] };
  };
}

async function pathBlock(path: string, workspace: string, call: CallTool): Promise<Block | undefined> {
  // Followed, so a link to a folder is a folder; a dangling link exists, and read_file says what it is.
  const absolute = resolve(workspace, path);
  const info = await stat(absolute).catch(() => lstat(absolute).catch(() => undefined));
  if (!info) return undefined;
  if (info.isDirectory()) {
    const listed = await call('list_files', { path });
    if (!listed.ok) return listed;
    return { ok: true, blocks: [element('folder', path, 'list_files', listed.text)], images: [], what: `folder, ${countOf(listed.text)}` };
  }
  const read = await call('read_file', { path });
  if (!read.ok) return read;
  // A picture goes as the image itself; read_file's line about it (`[a.png: PNG image, 64×48 …]`) is what the user sees.
  if (read.images.length) return { ok: true, blocks: [], images: read.images, what: read.text.replace(/^\[[^:]*: |\]$/g, '') };
  return { ok: true, blocks: [element('file', path, 'read_file', read.text)], images: [], what: linesOf(read.text) };
}

async function globBlock(pattern: string, call: CallTool): Promise<Block | undefined> {
  const listed = await call('list_files', { pattern });
  // A pattern that matches nothing (or is not a glob list_files takes) is text, like an unknown path.
  if (!listed.ok || listed.text.startsWith('No files match')) return undefined;
  const files = listed.text.split('\n').filter((line) => line !== '' && !line.startsWith('['));
  const blocks = [element('glob', pattern, 'list_files', listed.text)];
  const images: ImageRef[] = [];
  let refused = 0;
  for (const file of files.slice(0, MAX_GLOB_FILES)) {
    const read = await call('read_file', { path: file });
    // One file the rules refuse (a .env among the matches) is left out, and says why; the others go.
    if (!read.ok) {
      refused++;
      blocks.push(element('refused', file, 'read_file', read.reason));
    } else if (read.images.length) images.push(...read.images);
    else blocks.push(element('file', file, 'read_file', read.text));
  }
  const more = files.length > MAX_GLOB_FILES ? `; the first ${MAX_GLOB_FILES} read, the rest listed` : '';
  const left = refused ? `; ${refused} refused` : '';
  return { ok: true, blocks, images, what: `${files.length} file${files.length === 1 ? '' : 's'}${more}${left}` };
}

/**
 * One attachment. read_file numbers every line, so a file's own text never starts a line with
 * the closing tag; the path is quoted as JSON so a name cannot close the attribute.
 */
function element(kind: 'file' | 'folder' | 'glob' | 'refused', path: string, via: string, text: string): string {
  return `<${kind} path=${JSON.stringify(path)} via="${via}">\n${text}\n</${kind}>`;
}

/** read_file's footer names the line count: `[src/a.ts: 12 lines, 300 B. …]`. */
function linesOf(text: string): string {
  const footer = /: (\d+) lines?, (.+?)\. Showing/.exec(text.slice(text.lastIndexOf('\n[')));
  if (footer) return `${footer[1]} line${footer[1] === '1' ? '' : 's'}, ${footer[2]}`;
  return /: empty file/.test(text) ? 'empty' : 'attached';
}

function countOf(listing: string): string {
  const whole = /\[(\d+) of (\d+) files shown/.exec(listing);
  if (whole) return `${whole[1]} of ${whole[2]} files listed`;
  const lines = listing.split('\n').filter((line) => line !== '').length;
  return `${lines} file${lines === 1 ? '' : 's'}`;
}
