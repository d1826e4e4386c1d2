import { stat } from 'node:fs/promises';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { FileAccess } from '../tools/coding/shared/file-access.js';
import type { FileReadTracker } from '../tools/coding/shared/read-tracker.js';
import { resolveInWorkspace } from '../workspace/resolve-path.js';
import { uriPath } from './format-results.js';

const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** One file of a workspace edit: its text now and after the edit. */
export interface PlannedFile {
  absolute: string;
  shown: string;
  before: string;
  after: string;
  mode: number | undefined;
}

export interface EditRules {
  workspace: string;
  extraRoots: readonly string[];
  allowSecrets: boolean;
  access: FileAccess;
  tracker: FileReadTracker;
}

/**
 * A server's workspace edit as whole files, checked like edit_file checks one: each path lies in
 * the workspace (or an --add-dir) and is no secret; a file the agent read that has changed since
 * is refused (read it again); an edit that creates, renames or deletes files is refused. Any
 * refusal refuses the whole edit.
 */
export async function planWorkspaceEdit(edit: WorkspaceEdit | null | undefined, rules: EditRules): Promise<{ ok: true; files: PlannedFile[] } | { ok: false; error: string }> {
  const byUri = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) byUri.set(uri, [...(byUri.get(uri) ?? []), ...edits]);
  for (const change of edit?.documentChanges ?? []) {
    if (!('textDocument' in change)) return { ok: false, error: `the server's edit would ${change.kind} a file, which this tool does not do; nothing was changed` };
    byUri.set(change.textDocument.uri, [...(byUri.get(change.textDocument.uri) ?? []), ...change.edits.filter((item): item is TextEdit => 'range' in item)]);
  }
  if (!byUri.size) return { ok: false, error: 'the server proposed no change' };
  const files: PlannedFile[] = [];
  for (const [uri, edits] of byUri) {
    const resolved = await resolveInWorkspace(uriPath(uri), { workspace: rules.workspace, extraRoots: [...rules.extraRoots], allowSecrets: rules.allowSecrets, forWrite: true });
    if (!resolved.ok) return { ok: false, error: `${resolved.reason} Nothing was changed.` };
    const bytes = await rules.access.read(resolved.absolute, MAX_FILE_BYTES);
    if (rules.tracker.status(resolved.absolute, bytes) === 'changed') {
      return { ok: false, error: `${resolved.relative} changed since you last read it; read it again before renaming. Nothing was changed.` };
    }
    const before = Buffer.from(bytes).toString('utf8');
    const after = applyTextEdits(before, edits);
    if (after === before) continue;
    const mode = (await stat(resolved.absolute).catch(() => undefined))?.mode;
    files.push({ absolute: resolved.absolute, shown: resolved.relative.split('\\').join('/'), before, after, mode: mode === undefined ? undefined : mode & 0o7777 });
  }
  if (!files.length) return { ok: false, error: 'the server proposed no change' };
  files.sort((a, b) => a.shown.localeCompare(b.shown));
  return { ok: true, files };
}

/**
 * Writes every planned file, or none: when a write fails, the files already written get their old
 * text back, and the error says so.
 */
export async function writeAllOrNone(files: readonly PlannedFile[], access: FileAccess): Promise<void> {
  const written: PlannedFile[] = [];
  for (const file of files) {
    try {
      await access.write(file.absolute, Buffer.from(file.after, 'utf8'), file.mode === undefined ? {} : { mode: file.mode });
      written.push(file);
    } catch (error) {
      const restored = await Promise.all(written.map((done) => access.write(done.absolute, Buffer.from(done.before, 'utf8'), done.mode === undefined ? {} : { mode: done.mode }).then(() => true, () => false)));
      const lost = written.filter((_, index) => !restored[index]).map((done) => done.shown);
      throw new Error(`writing ${file.shown} failed (${(error as Error).message}); ${lost.length ? `the old text of ${lost.join(', ')} could not be written back` : `the ${written.length} file(s) already written were put back`}, so nothing changed`);
    }
  }
}

/** LSP text edits applied to a text (positions in UTF-16 units, as JavaScript strings count). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  const offset = (position: { line: number; character: number }) => {
    if (position.line >= starts.length) return text.length;
    const lineEnd = position.line + 1 < starts.length ? starts[position.line + 1]! - 1 : text.length;
    return Math.min(starts[position.line]! + position.character, lineEnd);
  };
  const spans = edits.map((edit) => ({ start: offset(edit.range.start), end: offset(edit.range.end), text: edit.newText }));
  // Later spans first, so earlier offsets stay valid; equal starts keep the server's order.
  spans.sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  for (const span of spans) result = result.slice(0, span.start) + span.text + result.slice(span.end);
  return result;
}
