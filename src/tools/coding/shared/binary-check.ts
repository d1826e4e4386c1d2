/** How much of a file is inspected to decide whether it is text. */
export const SNIFF_BYTES = 8192;

const SIGNATURES: Array<{ type: string; bytes: number[] }> = [
  { type: 'PNG image', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { type: 'JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { type: 'GIF image', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'PDF document', bytes: [0x25, 0x50, 0x44, 0x46] },
  { type: 'ZIP archive (also jar, docx, xlsx)', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'gzip archive', bytes: [0x1f, 0x8b] },
  { type: 'ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { type: 'WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { type: 'SQLite database', bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65] },
  { type: 'UTF-16 text (only UTF-8 is supported)', bytes: [0xff, 0xfe] },
  { type: 'UTF-16 text (only UTF-8 is supported)', bytes: [0xfe, 0xff] },
];

/**
 * Names the kind of binary data in `bytes` (the start of a file), or returns undefined for text.
 * Text means: no NUL byte and valid UTF-8 in the first SNIFF_BYTES (a character cut at the end is fine).
 */
export function describeBinary(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const known = SIGNATURES.find((s) => s.bytes.every((byte, i) => head[i] === byte));
  if (known) return known.type;
  if (head.includes(0)) return 'binary data (contains NUL bytes)';
  try {
    // stream: true tolerates a multi-byte character cut by the SNIFF_BYTES boundary.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.length < bytes.length });
  } catch {
    return 'binary or non-UTF-8 data (invalid UTF-8)';
  }
  return undefined;
}
