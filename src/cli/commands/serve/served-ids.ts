import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ServedEntry {
  id: string;
  workspace: string;
  /** The session file. */
  path: string;
}

/**
 * The sessions a server has hosted (one JSON line each, beside its token), so after a restart a
 * request naming one reopens it from its file. Lines that do not parse are skipped.
 */
export class ServedIds {
  private readonly entries = new Map<string, ServedEntry>();

  constructor(private readonly file: string) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      try {
        const entry = JSON.parse(line) as ServedEntry;
        if (typeof entry.id === 'string' && typeof entry.path === 'string' && typeof entry.workspace === 'string') this.entries.set(entry.id, entry);
      } catch {
        // a torn last line (the server was killed while writing it)
      }
    }
  }

  get(id: string): ServedEntry | undefined {
    return this.entries.get(id);
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  add(entry: ServedEntry): void {
    if (this.entries.get(entry.id)?.path === entry.path) return;
    this.entries.set(entry.id, entry);
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}
