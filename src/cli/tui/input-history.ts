import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { userDataDir, workspaceKey } from '../../session/paths.js';

const entrySchema = z.object({ text: z.string(), at: z.string().optional() });
/** Older entries are kept on disk but not loaded. */
const MAX_LOADED = 500;

/** `$XDG_DATA_HOME/vibe-agent/history/<workspace-key>.jsonl`, keyed like the workspace's sessions. */
export function historyPath(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'history', `${workspaceKey(workspace)}.jsonl`);
}

/** Prompt history of one workspace, oldest first, appended to a JSONL file as prompts are sent. */
export class InputHistory {
  readonly entries: string[];

  /** `redact` cleans what is written to disk (the session store's redactor: keys and tokens). */
  constructor(
    private readonly path: string | undefined,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.entries = path ? readEntries(path) : [];
  }

  add(text: string): void {
    if (!text.trim() || this.entries.at(-1) === text) return;
    this.entries.push(text);
    if (!this.path) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, `${JSON.stringify({ text: this.redact(text), at: new Date().toISOString() })}\n`, { mode: 0o600 });
    } catch {
      // History is a convenience: a read-only data dir must not break the session.
    }
  }
}

function readEntries(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = entrySchema.safeParse(JSON.parse(line));
      if (parsed.success) entries.push(parsed.data.text);
    } catch {
      // A torn last line (a crash mid-write) is skipped.
    }
  }
  return entries.slice(-MAX_LOADED);
}
