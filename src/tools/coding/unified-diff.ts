import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** A unified diff of two versions of one file, with a few lines of context; '' when they are equal. */
export function unifiedDiff(path: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context, headerOptions: FILE_HEADERS_ONLY });
}
