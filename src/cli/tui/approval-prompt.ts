import type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../../tools/approval.js';
import type { Key } from './key-parser.js';
import { keyChoice, keysLine, verdict } from './approval-keys.js';
import type { Theme } from '../display/theme.js';
import { colourDiffLine, looksLikeDiff } from '../display/diff-colour.js';
import { visibleLines, visibleText } from '../display/visible-text.js';

/** What the approval prompt needs from the screen. */
export interface ApprovalUi {
  /** Shows these lines in the live area; `undefined` removes them. */
  show(lines: string[] | undefined): void;
  /** Writes finished lines to the scrollback. */
  commit(lines: string[]): void;
  /** The next key press; `undefined` once `signal` is aborted. */
  nextKey(signal: AbortSignal): Promise<Key | undefined>;
  /** Longest detail to show, in lines. */
  maxDetailLines(): number;
}

/** The lines of the question: the tool and summary, the detail (a command, a coloured diff), the keys. */
export function approvalLines(request: ApprovalRequest, t: Theme, maxDetailLines: number): string[] {
  const [first, ...more] = visibleLines(request.summary);
  const lines = [`${t.yellow('?')} ${t.bold(`Allow ${request.tool}?`)} ${first}`, ...more.map((line) => `  ${line}`)];
  if (request.detail) {
    const detail = visibleText(request.detail).replace(/\s+$/, '').split('\n');
    const diff = looksLikeDiff(detail);
    const shown = detail.slice(0, Math.max(1, maxDetailLines));
    for (const line of shown) lines.push(`  ${diff ? colourDiffLine(line, t) : t.dim(line)}`);
    if (detail.length > shown.length) lines.push(`  ${t.dim(`… ${detail.length - shown.length} more lines`)}`);
  }
  lines.push(keysLine(request.always, t));
  return lines;
}

/**
 * The terminal's `AskApproval`: shows the request and waits for y / n (and a, when the policy
 * offers an "always" rule). `n` is no and the turn goes on (the model is told); Esc and Ctrl-C are
 * no and `stopTurn` is called (STOP_KEYS); an aborted run is no. Other keys are ignored, so a stray
 * Enter never approves.
 */
export function createApprovalPrompt(ui: ApprovalUi, t: Theme, stopTurn: () => void = () => {}): AskApproval {
  const askOnce: AskApproval = async (request, signal) => {
    if (signal.aborted) return 'no';
    ui.show(approvalLines(request, t, ui.maxDetailLines()));
    let answer: ApprovalAnswer = 'no';
    let stopped = false;
    try {
      for (;;) {
        const key = await ui.nextKey(signal);
        const chosen = key && keyChoice(key, Boolean(request.always));
        if (!key) break;
        if (chosen === 'escape' || chosen === 'interrupt') {
          stopped = true;
          break;
        }
        if (chosen) {
          answer = chosen;
          break;
        }
      }
    } finally {
      ui.show(undefined);
    }
    const [shown, ...rest] = visibleLines(request.summary);
    // A question withdrawn with a reason (another client answered it) says so rather than "denied".
    const withdrawn = !stopped && signal.aborted && typeof signal.reason === 'string' ? t.dim(signal.reason) : undefined;
    ui.commit([`${t.dim('?')} ${request.tool} ${t.dim(rest.length ? `${shown} …` : shown!)} ${withdrawn ?? verdict(stopped ? 'stopped' : answer, request.always, t)}`]);
    if (stopped) stopTurn();
    return answer;
  };
  // One question on screen at a time, should calls ever be asked about concurrently.
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const next = queue.then(() => askOnce(request, signal));
    queue = next.catch(() => undefined);
    return next;
  };
}
