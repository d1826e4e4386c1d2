import type { Tool } from '../../contracts/tool.js';
import { createEditFileTool } from './edit/edit-file.js';
import type { FileToolOptions } from './shared/file-tool-options.js';
import { createReadFileTool } from './files/read-file.js';
import { FileReadTracker } from './shared/read-tracker.js';
import { createWriteFileTool } from './files/write-file.js';

/**
 * read_file, write_file and edit_file, sharing one tracker so an edit knows what the agent has
 * read. Paths resolve against each call's workspace; `options` adds roots and secret access.
 */
export function createFileTools(options: FileToolOptions = {}, tracker: FileReadTracker = options.tracker ?? new FileReadTracker()): Tool[] {
  return [createReadFileTool(options, tracker), createWriteFileTool(options, tracker), createEditFileTool(options, tracker)];
}
