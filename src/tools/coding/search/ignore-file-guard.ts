import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { checkGitExclude, IGNORE_FILE_NAMES, loadAncestors, MAX_IGNORE_FILE_BYTES } from './ignore-rules.js';

/**
 * Whether ripgrep may walk `root`: ripgrep 13 blocks for good on an ignore file that is a FIFO and
 * reads one linked to /dev/zero until memory runs out, so every ignore file it could open must be
 * a regular file of a sane size. One `find` process looks (it reads directory entries' types, and
 * stats only the few files with an ignore file's name); the ancestors' ignore files and each
 * repository's `info/exclude` are read as the JavaScript walker reads them. Conservative: an
 * ignore file that is a link, or one inside an ignored folder, also says no; then the JavaScript
 * walker runs and reports what it refused. Runs beside ripgrep, which is stopped when this says no.
 */
export async function ripgrepMayWalk(root: string, signal: AbortSignal): Promise<boolean> {
  let refused = false;
  loadAncestors(root, () => (refused = true));
  if (refused) return false;
  const names = Object.values(IGNORE_FILE_NAMES).flatMap((name, i) => [...(i ? ['-o'] : []), '-name', name]);
  const args = [
    '.',
    ...['(', '-name', 'node_modules', '-prune', ')', '-o'],
    ...['(', '-name', '.git', '-print0', '-prune', ')', '-o'],
    ...['(', '(', ...names, ')', '(', '!', '-type', 'f', '-o', '-size', `+${MAX_IGNORE_FILE_BYTES / 1024}k`, ')', '-print0', ')'],
  ];
  const found = await runFind(root, args, signal);
  if (found === undefined) return false;
  for (const entry of found) {
    if (!entry.endsWith('/.git') && entry !== '.git') return false;
    checkGitExclude(join(root, dirname(entry)), () => (refused = true));
    if (refused) return false;
  }
  return true;
}

/** The NUL-separated paths `find` printed, or undefined when it could not run. An unreadable folder (exit 1) is one ripgrep cannot read either. */
function runFind(cwd: string, args: string[], signal: AbortSignal): Promise<string[] | undefined> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const child = spawn('find', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], signal });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => (signal.aborted ? reject(signal.reason) : resolve(undefined)));
    child.on('close', (code) => {
      if (signal.aborted) return reject(signal.reason);
      if (code !== 0 && code !== 1) return resolve(undefined);
      resolve(Buffer.concat(chunks).toString('utf8').split('\0').filter((entry) => entry !== ''));
    });
  });
}
