import { SESSION_ID_SHAPE } from '../../../session/paths.js';
import { UsageError } from '../../settings/usage-error.js';

export interface TraceArgs {
  /** A session id (or prefix) or a session file's path; undefined: the latest in the workspace. */
  session?: string;
  /** --html FILE: write the page to FILE instead of serving it. */
  html?: string;
  /** --no-open: print the URL without starting a browser. */
  noOpen: boolean;
}

const TRACE_ONLY = ['html', 'no-open'];

/**
 * Whether `vibe-agent trace …` is the trace command: `trace` alone, `trace SESSION` where SESSION
 * looks like an id or a file, or any trace flag. "vibe-agent trace the slow request" stays a prompt.
 */
export function isTraceCommand(positionals: string[], values: Record<string, unknown>): boolean {
  if (positionals[0] !== 'trace') return false;
  if (positionals.length === 1 || traceFlagsGiven(values).length) return true;
  return positionals.length === 2 && looksLikeSession(positionals[1]!);
}

export function parseTraceArgs(positionals: string[], values: Record<string, unknown>): { command: 'trace'; trace: TraceArgs } {
  if (positionals.length > 1) throw new UsageError(`"vibe-agent trace" takes one session (an id or a file), got "${positionals.join(' ')}".`);
  const html = values.html;
  if (html !== undefined && (typeof html !== 'string' || html === '')) throw new UsageError('--html takes the file to write the page to.');
  if (html !== undefined && values['no-open']) throw new UsageError('--no-open goes with serving the page; --html writes a file and opens nothing.');
  return {
    command: 'trace',
    trace: { ...(positionals[0] !== undefined ? { session: positionals[0] } : {}), ...(typeof html === 'string' ? { html } : {}), noOpen: values['no-open'] === true },
  };
}

/** The trace flags, which mean nothing to other commands. */
export function traceFlagsGiven(values: Record<string, unknown>): string[] {
  return TRACE_ONLY.filter((flag) => values[flag] !== undefined && values[flag] !== false);
}

function looksLikeSession(word: string): boolean {
  return SESSION_ID_SHAPE.test(word) || word.endsWith('.jsonl') || word.includes('/') || word.includes('\\');
}
