import { SESSION_ID_SHAPE } from '../../../session/paths.js';
import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface TraceArgs {
  /** A session id (or prefix) or a session file's path; undefined: the latest in the workspace. */
  session?: string;
  /** --html FILE: write the page to FILE instead of serving it. */
  html?: string;
  /** --no-open: print the URL without starting a browser. */
  noOpen: boolean;
}

export function parseTraceArgs({ words: positionals, flags: values }: CommandInput): { command: 'trace'; trace: TraceArgs } {
  if (positionals[0] !== undefined && !looksLikeSession(positionals[0])) {
    throw new UsageError(`"${positionals[0]}" is not a session: trace takes an id or id prefix from "vibe-agent sessions" (20261203-…) or a .jsonl file. To ask the model instead, quote the whole prompt: vibe-agent "trace ${positionals[0]}"`);
  }
  const html = values.html;
  if (html !== undefined && (typeof html !== 'string' || html === '')) throw new UsageError('--html takes the file to write the page to.');
  if (html !== undefined && values['no-open']) throw new UsageError('--no-open goes with serving the page; --html writes a file and opens nothing.');
  return {
    command: 'trace',
    trace: { ...(positionals[0] !== undefined ? { session: positionals[0] } : {}), ...(typeof html === 'string' ? { html } : {}), noOpen: values['no-open'] === true },
  };
}

function looksLikeSession(word: string): boolean {
  return SESSION_ID_SHAPE.test(word) || word.endsWith('.jsonl') || word.includes('/') || word.includes('\\');
}
