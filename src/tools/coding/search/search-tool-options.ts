import type { FileToolOptions } from '../shared/file-tool-options.js';
import type { RipgrepSetting } from './ripgrep-detect.js';

export interface SearchToolOptions extends FileToolOptions {
  /** 'auto' (default) uses `rg` from PATH when present; false forces the JavaScript engine. */
  ripgrep?: RipgrepSetting;
  /** Most paths list_files returns. Default 1000. */
  maxListedFiles?: number;
}
