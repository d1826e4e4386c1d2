import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where full tool outputs live once the history only holds a capped copy or a stub. Ids are
 * derived from the text (see outputIdFor), so storing the same output twice is harmless and a
 * history rebuilt from a session file points at the same ids.
 */
export interface OutputStore {
  put(id: string, text: string): Promise<void>;
  get(id: string): Promise<string | undefined>;
}

const OUTPUT_ID = /^out_[0-9a-f]{12}$/;

/** A short content hash: the same output always gets the same id. */
export function outputIdFor(text: string): string {
  return `out_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

export function isOutputId(id: string): boolean {
  return OUTPUT_ID.test(id);
}

export class MemoryOutputStore implements OutputStore {
  private readonly outputs = new Map<string, string>();

  async put(id: string, text: string): Promise<void> {
    this.outputs.set(id, text);
  }

  async get(id: string): Promise<string | undefined> {
    return this.outputs.get(id);
  }

  get size(): number {
    return this.outputs.size;
  }
}

/** One file per output in a directory (e.g. next to a session file), written atomically. */
export class DirectoryOutputStore implements OutputStore {
  constructor(readonly directory: string) {}

  async put(id: string, text: string): Promise<void> {
    const path = this.pathFor(id);
    // Full tool outputs can hold what a session file would redact: readable by the user alone.
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, text, { encoding: 'utf8', mode: 0o600 });
    await rename(temporary, path);
  }

  async get(id: string): Promise<string | undefined> {
    try {
      return await readFile(this.pathFor(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private pathFor(id: string): string {
    // The id reaches us from the model (read_output): never let it name a path.
    if (!isOutputId(id)) throw new Error(`"${id}" is not an output id (expected out_ and 12 hex digits).`);
    return join(this.directory, `${id}.txt`);
  }
}
