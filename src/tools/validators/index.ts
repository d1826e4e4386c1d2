// Written by scripts/tool-specs.mjs (`npm run tool-specs`); test/tool-validators.test.ts fails when it is stale.
/** Each built-in tool's compiled check (a CompiledValidator), imported at its first need. */
export const VALIDATORS: Readonly<Record<string, () => Promise<{ validate: (data: unknown) => boolean }>>> = {
  read_file: () => import('./read_file.js'),
  write_file: () => import('./write_file.js'),
  edit_file: () => import('./edit_file.js'),
  list_files: () => import('./list_files.js'),
  grep: () => import('./grep.js'),
  bash: () => import('./bash.js'),
  bash_output: () => import('./bash_output.js'),
  bash_kill: () => import('./bash_kill.js'),
  remember: () => import('./remember.js'),
  todo_write: () => import('./todo_write.js'),
  todo_read: () => import('./todo_read.js'),
  current_time: () => import('./current_time.js'),
  calculator: () => import('./calculator.js'),
  fetch_url: () => import('./fetch_url.js'),
  skill: () => import('./skill.js'),
  read_output: () => import('./read_output.js'),
  code_nav: () => import('./code_nav.js'),
};
