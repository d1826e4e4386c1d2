import type { ImageRef, ProviderData, ToolCall } from '../../contracts/messages.js';

/** The agents whose sessions can be imported. */
export type ForeignAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'pi';

export const AGENT_NAMES: Record<ForeignAgent, string> = { 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI', pi: 'pi' };

/** One message of a foreign session, in the neutral shape every importer produces. */
export type EntryBody =
  | { kind: 'user'; text: string; images?: ImageRef[] }
  | { kind: 'assistant'; text: string; calls: ToolCall[]; reasoning?: string; providerData?: ProviderData; model?: string }
  | { kind: 'result'; callId: string; name: string; content: string; isError: boolean; images?: ImageRef[] }
  /** A compaction: everything before it on its branch is replaced by the summary, except from `keepFrom` (an entry id) on. */
  | { kind: 'compaction'; summary: string; keepFrom?: string };

export interface ImportEntry {
  id: string;
  /** The entry it follows: null for a root. */
  parentId: string | null;
  /** 1-based line (or, for a whole-file JSON, message index + 1) of the source it came from. */
  line: number;
  body: EntryBody;
}

/** A subagent's conversation (Claude Code's sidechains): kept beside the main one, outside its history. */
export interface ImportedSidechain {
  name: string;
  file: string;
  entries: ImportEntry[];
}

/** What was read, what was kept, what was left out and why. */
export class ImportStats {
  lines = 0;
  messages = 0;
  toolCalls = 0;
  results = 0;
  mappedCalls = 0;
  foreignCalls = 0;
  reasoning = 0;
  images = 0;
  compactions = 0;
  branches = 1;
  sidechains = 0;
  readonly skipped: Record<string, number> = {};

  skip(reason: string, count = 1): void {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + count;
  }

  get skippedTotal(): number {
    return Object.values(this.skipped).reduce((a, b) => a + b, 0);
  }
}

/** What an importer makes of one file: the entries as a tree (parent links), with the branch the agent would resume. */
export interface ParsedForeignSession {
  agent: ForeignAgent;
  /** The agent's version that wrote the file, when it says. */
  version?: string;
  /** The agent's own id for the session. */
  sourceId: string;
  /** The workspace the session ran in, when the file says. */
  cwd?: string;
  entries: ImportEntry[];
  /** The leaf of the branch the agent itself would continue (default: the last entry). */
  activeLeaf?: string;
  sidechains: ImportedSidechain[];
  stats: ImportStats;
}
