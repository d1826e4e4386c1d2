import { readdirSync, type Dirent } from 'node:fs';

/** A folder's entries, or none when it cannot be read (gone, no permission): a walk skips it and goes on. */
export function dirEntriesOrNone(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
