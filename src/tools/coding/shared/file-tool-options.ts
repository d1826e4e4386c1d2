/** What the user allows the file tools beyond the workspace (the workspace itself comes per call). */
export interface FileToolOptions {
  /** More directories the tools may touch (--add-dir). */
  extraRoots?: string[];
  /** Read and write files that look like secrets (.env, keys). Default false. */
  allowSecrets?: boolean;
}
