import type { WriteObserver } from './observe-write.js';
import type { FileAccess } from './file-access.js';
import type { FileReadTracker } from './read-tracker.js';

/** What the user allows the file tools beyond the workspace (the workspace itself comes per call). */
export interface FileToolOptions {
  /** More directories the tools may touch (--add-dir). */
  extraRoots?: string[];
  /** Read and write files that look like secrets (.env, keys). Default false. */
  allowSecrets?: boolean;
  /**
   * Directories read_file alone may also read, asked at each call: the folders of the skills
   * loaded so far, so their bundled files can be read and nothing else outside is opened up.
   */
  readRoots?: () => readonly string[];
  /** Called around each write of write_file and edit_file (diagnostics after edits); its text joins the result. */
  observeWrite?: WriteObserver;
  /** Where file bytes are read and written (an editor's buffers over ACP); default the disk. */
  files?: FileAccess;
  /**
   * Whether read_file returns a picture as an image (default true). False when the model is known
   * to take text only: read_file then says it cannot show it.
   */
  acceptsImages?: boolean;
  /** What the agent has read, shared with other tools that write (code_nav's rename); default one of their own. */
  tracker?: FileReadTracker;
}
