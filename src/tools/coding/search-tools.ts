import type { Tool } from '../../contracts/tool.js';
import { createGrepTool } from './search/grep.js';
import { createListFilesTool } from './search/list-files.js';
import type { SearchToolOptions } from './search/search-tool-options.js';

export type { SearchToolOptions } from './search/search-tool-options.js';

/** list_files and grep, sharing the path rules (workspace, extra roots, secret files). */
export function createSearchTools(options: SearchToolOptions = {}): Tool[] {
  return [createListFilesTool(options), createGrepTool(options)];
}
