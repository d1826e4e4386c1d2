import type { Tool } from '../define-tool.js';
import { createEditFileTool } from './edit-file.js';
import type { FileToolOptions } from './file-tool-options.js';
import { createReadFileTool } from './read-file.js';
import { FileReadTracker } from './read-tracker.js';
import { createWriteFileTool } from './write-file.js';

/**
 * read_file, write_file and edit_file, sharing one tracker so an edit knows what the agent has
 * read. Paths resolve against each call's workspace; `options` adds roots and secret access.
 */
export function createFileTools(options: FileToolOptions = {}, tracker: FileReadTracker = new FileReadTracker()): Tool[] {
  return [createReadFileTool(options, tracker), createWriteFileTool(options, tracker), createEditFileTool(options, tracker)];
}
