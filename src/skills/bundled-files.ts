import { relative } from 'node:path';
import { walkConfined } from '../workspace/walk-confined.js';

const MAX_LISTED = 200;
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * The files beside SKILL.md (recursively, at most 200), as absolute paths, sorted. Links are
 * followed only where they stay inside the skill's folder.
 */
export function bundledFiles(dir: string): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  walkConfined(dir, {
    enter: (name) => !SKIPPED.has(name),
    file: (path) => {
      if (relative(dir, path) === 'SKILL.md') return;
      if (files.length >= MAX_LISTED) {
        more = true;
        return false;
      }
      files.push(path);
    },
  });
  return { files: files.sort(), more };
}
