import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sessionsDir } from '../paths.js';
import { createSession } from '../session-store.js';
import { parseClaudeCode } from './claude-code-import.js';
import { parseCodex } from './codex-import.js';
import { detectFormat } from './detect-format.js';
import { parseGeminiCli } from './gemini-cli-import.js';
import { ledgerPath, readLedger, recordImport } from './import-ledger.js';
import type { ForeignAgent, ImportStats, ParsedForeignSession } from './import-model.js';
import { parsePi } from './pi-import.js';
import { readSource } from './source-lines.js';
import { writeImportedSession } from './write-imported-session.js';

export interface ImportOptions {
  /** The workspace whose sessions the import joins. */
  workspace: string;
  env?: NodeJS.ProcessEnv;
  redact?: (text: string) => string;
}

export interface ImportOutcome {
  /** The Vibe session the file became (or had become, when `already`). */
  sessionId: string;
  path: string;
  agent: ForeignAgent;
  sourceId: string;
  /** The file's exact bytes were imported before: nothing was written. */
  already: boolean;
  stats?: ImportStats;
}

export class NotASessionError extends Error {}

/** Reads a foreign session file (read-only) into the neutral tree, whichever agent wrote it. */
export function parseForeignSession(file: string): ParsedForeignSession & { digest: string } {
  const source = readSource(file);
  const agent = detectFormat(source.text);
  if (!agent) {
    const first = source.text.trimStart().slice(0, 80).split('\n')[0] ?? '';
    throw new NotASessionError(`${file} is not a Claude Code, Codex, Gemini CLI or pi session file${source.size === 0 ? ' (it is empty)' : ` (it begins: ${JSON.stringify(first)})`}.`);
  }
  const parsed = agent === 'claude-code' ? parseClaudeCode(source.text, file, subagentFiles(file)) : agent === 'codex' ? parseCodex(source.text, file) : agent === 'gemini-cli' ? parseGeminiCli(source.text, file) : parsePi(source.text, file);
  return { ...parsed, digest: source.digest };
}

/**
 * Imports one foreign session into a new session of the workspace. The same bytes imported again
 * (the digest ledger knows them, and their session is still there) are not imported twice.
 */
export function importForeignSession(file: string, options: ImportOptions): ImportOutcome {
  const absolute = resolve(file);
  const dir = sessionsDir(options.workspace, options.env);
  const ledger = ledgerPath(dir);
  const parsed = parseForeignSession(absolute);
  const known = readLedger(ledger)[parsed.digest];
  const knownPath = known ? join(dir, `${known.session}.jsonl`) : undefined;
  if (known && knownPath && existsSync(knownPath)) return { sessionId: known.session, path: knownPath, agent: parsed.agent, sourceId: parsed.sourceId, already: true };
  const opened = createSession({ workspace: options.workspace, ...(options.env ? { env: options.env } : {}), ...(options.redact ? { redact: options.redact } : {}) });
  try {
    writeImportedSession(opened.writer, parsed, absolute, parsed.digest);
  } finally {
    opened.close();
  }
  recordImport(ledger, parsed.digest, { session: opened.id, source: absolute, agent: parsed.agent, importedAt: new Date().toISOString() });
  return { sessionId: opened.id, path: opened.path, agent: parsed.agent, sourceId: parsed.sourceId, already: false, stats: parsed.stats };
}

/** Claude Code keeps a session's subagents in `<session>/subagents/agent-*.jsonl` beside it. */
function subagentFiles(file: string): Array<{ file: string; text: string }> {
  const dir = join(dirname(file), basename(file).replace(/\.jsonl$/, ''), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    return [];
  }
  return names.map((name) => ({ file: join(dir, name), text: readSource(join(dir, name)).text }));
}
