import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const MAX_LISTED = 200;
const SKIPPED = new Set(['.git', 'node_modules']);

/** The files beside SKILL.md (recursively, at most 200), as absolute paths, sorted. */
export function bundledFiles(dir: string): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  const walk = (current: string) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= MAX_LISTED) {
        more = true;
        return;
      }
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
      } else if (entry.isFile() && relative(dir, path) !== 'SKILL.md') files.push(path);
    }
  };
  walk(dir);
  return { files, more };
}
