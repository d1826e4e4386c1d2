import type { Tool } from '../define-tool.js';
import { createGrepTool } from './grep.js';
import { createListFilesTool, type SearchToolOptions } from './list-files.js';

export type { SearchToolOptions } from './list-files.js';

/** list_files and grep, sharing the path rules (workspace, extra roots, secret files). */
export function createSearchTools(options: SearchToolOptions = {}): Tool[] {
  return [createListFilesTool(options), createGrepTool(options)];
}
