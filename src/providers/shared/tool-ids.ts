import { createHash } from 'node:crypto';

/**
 * Tool-call ids and tool names as each provider wants them on the wire.
 *
 * Ids are echoed byte-for-byte by default. A provider that demands a format gets ids that
 * already fit unchanged, and others replaced by a stable hash (the same id always maps to the
 * same wire id, so a history sent twice is sent identically). Names are sanitised the same
 * way. A per-request map keeps the way back, so our history keeps the original ids and names.
 */
export type ToolIdFormat =
  /** Echo as received (the default). */
  | 'verbatim'
  /** Mistral: exactly 9 characters from [a-zA-Z0-9]. */
  | 'alnum9'
  /** OpenAI: at most 40 characters. */
  | 'max40';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters from [a-zA-Z0-9], derived from a SHA-256 of `text`. */
export function alnumHash(text: string, length: number): string {
  const bytes = createHash('sha256').update(text).digest();
  let out = '';
  for (let i = 0; out.length < length; i++) out += ALNUM[bytes[i % bytes.length]! % ALNUM.length];
  return out;
}

export function fitsIdFormat(id: string, format: ToolIdFormat): boolean {
  switch (format) {
    case 'verbatim':
      return true;
    case 'alnum9':
      return /^[a-zA-Z0-9]{9}$/.test(id);
    case 'max40':
      return id.length > 0 && id.length <= 40;
  }
}

export function wireToolId(id: string, format: ToolIdFormat): string {
  if (fitsIdFormat(id, format)) return id;
  if (format === 'alnum9') return alnumHash(id, 9);
  return `call_${alnumHash(id, 32)}`;
}

/** Gemini's rule for function names. */
export const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/;

/**
 * A name that matches `pattern`: unchanged when it already does, else invalid characters
 * become `_`, a leading `_` is added when the first character is not allowed, and a short hash
 * of the original is appended so two different names never collide.
 */
export function sanitiseToolName(name: string, pattern: RegExp = GEMINI_NAME): string {
  if (pattern.test(name)) return name;
  let clean = name.replace(/[^a-zA-Z0-9_.-]/g, '_');
  if (!/^[a-zA-Z_]/.test(clean)) clean = `_${clean}`;
  const suffix = `_${alnumHash(name, 6)}`;
  return `${clean.slice(0, 64 - suffix.length)}${suffix}`;
}

/** One request's mapping between our ids/names and the wire's, both ways. */
export class ToolWireMap {
  private readonly idsBack = new Map<string, string>();
  private readonly namesBack = new Map<string, string>();

  constructor(private readonly options: { idFormat?: ToolIdFormat; namePattern?: RegExp } = {}) {}

  id(ours: string): string {
    const wire = wireToolId(ours, this.options.idFormat ?? 'verbatim');
    if (wire !== ours) this.idsBack.set(wire, ours);
    return wire;
  }

  name(ours: string): string {
    const wire = this.options.namePattern ? sanitiseToolName(ours, this.options.namePattern) : ours;
    if (wire !== ours) this.namesBack.set(wire, ours);
    return wire;
  }

  /** The id we know a wire id by; a new id from the model is kept as it came. */
  idFromWire(wire: string): string {
    return this.idsBack.get(wire) ?? wire;
  }

  /** The tool a wire name stands for; an unknown name is kept (the registry reports it). */
  nameFromWire(wire: string): string {
    return this.namesBack.get(wire) ?? wire;
  }
}
