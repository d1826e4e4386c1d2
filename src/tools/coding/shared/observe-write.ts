import { errorText } from '../../../contracts/error-text.js';
import type { ToolContext, ToolOutput } from '../../../contracts/tool.js';

/**
 * Watches write_file's and edit_file's writes (the CLI checks the project for errors the edit
 * introduced): called just before the bytes land, it returns what to call right after, whose text
 * is added to the tool's result. The write waits for the first step, so it only reads (the old
 * text); the checking belongs in the second. It never fails a write: an error in it becomes a note.
 */
export type WriteObserver = (absolute: string, context: ToolContext) => Promise<(() => Promise<string | undefined>) | undefined>;

/** Runs `write` between the observer's two steps and appends what the second one says to `report`. */
export async function observedWrite(observer: WriteObserver | undefined, absolute: string, context: ToolContext, write: () => Promise<ToolOutput>): Promise<ToolOutput> {
  if (!observer) return write();
  let after: (() => Promise<string | undefined>) | undefined;
  try {
    after = await observer(absolute, context);
  } catch (error) {
    after = async () => `(Diagnostics failed: ${errorText(error)})`;
  }
  const report = await write();
  if (!after) return report;
  const addendum = await after().catch((error: unknown) => `(Diagnostics failed: ${errorText(error)})`);
  if (!addendum) return report;
  return typeof report === 'string' ? `${report}\n\n${addendum}` : { ...report, output: `${report.output}\n\n${addendum}` };
}
