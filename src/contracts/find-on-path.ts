import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Where `program` is on PATH: the first regular, executable file of that name in an absolute PATH
 * folder (an empty or relative entry would name a folder of the current directory, so is skipped).
 */
export function findOnPath(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, program);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile() !== true) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // There, but not executable.
    }
  }
  return undefined;
}
