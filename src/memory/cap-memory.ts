import type { MemorySource } from './memory-sources.js';

export interface MemoryBudget {
  /** All memory together, in UTF-8 bytes (default 16 KiB). */
  totalBytes?: number;
  /** Any one file (default 8 KiB). */
  perFileBytes?: number;
}

export interface CappedSource extends MemorySource {
  /** Present when the text was cut: what was cut and where to read the rest. */
  note?: string;
}

/**
 * Fits the sources into the budget. The most specific sources (last) are served first, so when
 * memory is over budget it is the general files that are cut. Cuts fall on a line boundary.
 */
export function capMemory(sources: MemorySource[], budget: MemoryBudget = {}): CappedSource[] {
  const perFile = budget.perFileBytes ?? 8 * 1024;
  let remaining = budget.totalBytes ?? 16 * 1024;
  const capped: CappedSource[] = new Array(sources.length);
  for (let i = sources.length - 1; i >= 0; i--) {
    const source = sources[i]!;
    const size = Buffer.byteLength(source.text);
    const allowed = Math.min(size, perFile, remaining);
    if (allowed >= size) {
      capped[i] = source;
      remaining -= size;
      continue;
    }
    const text = cutAtLine(source.text, allowed);
    const kept = Buffer.byteLength(text);
    remaining -= kept;
    const why = kept === 0 ? 'omitted' : `cut after ${kept} of ${size} bytes`;
    capped[i] = { ...source, text, note: `[vibe-agent: ${why} to fit the memory budget; the whole file is ${source.path}]` };
  }
  return capped;
}

/** The longest prefix of at most `maxBytes` bytes, ending at a newline when one is in the last half. */
function cutAtLine(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = Math.min(maxBytes, bytes.length);
  // Step back off a UTF-8 continuation byte so no character is split.
  while (end > 0 && end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
  const prefix = bytes.subarray(0, end);
  const newline = prefix.lastIndexOf(0x0a);
  return prefix.subarray(0, newline >= end / 2 ? newline + 1 : end).toString('utf8');
}
