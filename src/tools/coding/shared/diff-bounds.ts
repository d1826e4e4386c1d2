/**
 * How much work a line diff may take. Myers' algorithm costs the file's length times the number of
 * changed lines: two different 1 MB files took minutes, and a 10 MB write_file over an existing file
 * never finished. Past either bound the diff gives up (jsdiff returns undefined) and the caller
 * describes the change without it.
 */
export const DIFF_BOUNDS = { maxEditLength: 2_000, timeout: 2_000 } as const;
