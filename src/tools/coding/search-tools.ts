import type { Tool } from '../define-tool.js';
import { createGrepTool } from './grep.js';
import { createListFilesTool } from './list-files.js';
import type { SearchToolOptions } from './search-tool-options.js';

export type { SearchToolOptions } from './search-tool-options.js';

/** list_files and grep, sharing the path rules (workspace, extra roots, secret files). */
export function createSearchTools(options: SearchToolOptions = {}): Tool[] {
  return [createListFilesTool(options), createGrepTool(options)];
}
