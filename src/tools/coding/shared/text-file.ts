import { stat } from 'node:fs/promises';
import { errorText } from '../../../contracts/error-text.js';
import { fileKind } from '../../../workspace/read-own-file.js';
import { describeBinary } from './binary-check.js';
import { diskFileAccess, type FileAccess } from './file-access.js';
import { toLogicalText, type TextLayout } from './line-endings.js';

/** Larger files are refused rather than loaded whole into memory. */
export const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

export interface TextFile {
  /** Content with LF line endings (unless the layout is 'mixed') and without a BOM. */
  text: string;
  layout: TextLayout;
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  /** Permission bits, kept when the file is rewritten. */
  mode: number;
}

export type LoadResult = { ok: true; file: TextFile } | { ok: false; missing?: boolean; reason: string };

/** Loads a UTF-8 text file; directories, binary and oversized files come back as a reason the model can act on. */
export async function loadTextFile(absolute: string, shown: string, files: FileAccess = diskFileAccess): Promise<LoadResult> {
  let info;
  try {
    info = await stat(absolute);
  } catch {
    return { ok: false, missing: true, reason: `The file ${shown} does not exist.` };
  }
  if (info.isDirectory()) return { ok: false, reason: `${shown} is a directory, not a file. Use list_files to see what it contains.` };
  // A FIFO would block the read for good and /dev/zero never ends: neither is opened.
  if (!info.isFile()) return { ok: false, reason: `${shown} is ${fileKind(info)}, not a regular file; the file tools read regular files only.` };
  if (info.size > MAX_TEXT_FILE_BYTES) {
    return {
      ok: false,
      reason: `${shown} is ${formatBytes(info.size)}, over the ${formatBytes(MAX_TEXT_FILE_BYTES)} limit for file tools. Use bash (head, tail, grep, sed -n) to look at parts of it.`,
    };
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await files.read(absolute, MAX_TEXT_FILE_BYTES));
  } catch (error) {
    return { ok: false, reason: `${shown} could not be read: ${errorText(error)}` };
  }
  const binary = describeBinary(bytes);
  if (binary) return { ok: false, reason: `${shown} is not a text file: ${binary}, ${formatBytes(bytes.length)}. The file tools handle UTF-8 text only.` };
  let decoded: string;
  try {
    // Fatal: a lenient decode would turn invalid bytes into U+FFFD, and an edit would then write those back.
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: `${shown} is not a text file: invalid UTF-8 after the first 8 KB, ${formatBytes(bytes.length)}. The file tools handle UTF-8 text only.` };
  }
  const { text, layout } = toLogicalText(decoded);
  return { ok: true, file: { text, layout, bytes, size: bytes.length, mtimeMs: info.mtimeMs, mode: info.mode & 0o7777 } };
}

/** A file without any write bit was made read-only on purpose; the tools do not override that (root could). */
export function readOnlyReason(shown: string, mode: number): string | undefined {
  if ((mode & 0o222) !== 0) return undefined;
  return `${shown} is read-only (mode ${mode.toString(8).padStart(4, '0')}), so it is left alone. Ask the user to make it writable if it should change.`;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${size.toLocaleString('en-US')} bytes (${value.toFixed(1)} ${units[unit]})`;
}
