import type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../../tools/approval.js';
import { colourDiffLine, looksLikeDiff } from '../display/diff-colour.js';
import { createTheme, type Theme } from '../display/theme.js';
import { visibleLines, visibleText } from '../display/visible-text.js';
import { keyChoice, keysLine, verdict } from '../tui/approval-keys.js';
import { holdWaitStatus } from '../display/wait-status.js';
import { readKeyAnswer, takesSingleKeys, type KeyInput } from './read-key-answer.js';

export interface TerminalApprovalOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  color: boolean;
  /** Longest detail (diff, command) shown before it is folded. */
  maxDetailLines?: number;
  /** Where Ctrl-C arrives as SIGINT (the terminal is in line mode); default `process`. */
  interrupts?: NodeJS.EventEmitter;
  /** What Ctrl-C does in raw mode (it arrives as a key, not a signal); default: interruptThisProcess, which stops the run. */
  interrupt?: () => void;
}

/** The hint at a one-shot question: Esc and Ctrl-C are no and stop the run, as at the TUI's (where they stop the turn). */
export const ONE_SHOT_CANCEL = '(Esc or Ctrl-C = no and stop the run)';
/** The hint at a one-shot yes/no question (trust, overwrite): Esc is no and the command goes on; Ctrl-C stops it. */
export const YES_NO_CANCEL = '(Esc = no, Ctrl-C stops the run)';

/**
 * Ctrl-C as the terminal would send it in line mode. The run's handlers are called at once, so the
 * run is aborted before the denied call returns to it (a real signal lands a loop turn later, after
 * the next request may have gone out); with no handler, the signal itself ends the process.
 */
export function interruptThisProcess(): void {
  if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
  else process.kill(process.pid, 'SIGINT');
}

export function parseApprovalAnswer(text: string): ApprovalAnswer | undefined {
  const answer = text.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'a' || answer === 'always') return 'always';
  if (answer === '' || answer === 'n' || answer === 'no') return 'no';
  return undefined;
}

/**
 * Asks on the terminal (stderr, so stdout keeps only the answer). On a terminal it takes single keys,
 * the TUI's (y, n, a; Esc is no; see readKeyAnswer for a burst of keys), and Ctrl-C stops the run.
 * When stdin is not a terminal it reads lines: Enter alone means no, and so does Ctrl-C while the
 * question waits (the call is denied and the run goes on).
 */
export function createTerminalApproval(options: TerminalApprovalOptions): AskApproval {
  const style = createTheme(options.color);
  const maxLines = options.maxDetailLines ?? 60;
  let queue = Promise.resolve<unknown>(undefined);
  const showQuestion = (request: ApprovalRequest) => {
    const out = options.output;
    const [first, ...more] = visibleLines(request.summary);
    out.write(`\n${style.yellow('?')} ${style.bold(request.tool)} ${first}\n${more.map((line) => `  ${line}\n`).join('')}`);
    if (request.detail) {
      const lines = visibleText(request.detail).replace(/\n$/, '').split('\n');
      const diff = looksLikeDiff(lines);
      out.write(`${lines.slice(0, maxLines).map((line) => (diff ? colourDiffLine(line, style) : line)).join('\n')}\n`);
      if (lines.length > maxLines) out.write(style.dim(`… ${lines.length - maxLines} more lines\n`));
    }
  };
  const input = options.input;
  const askOnce = takesSingleKeys(input) ? askByKey(input, options, style, showQuestion) : askByLine(options, style, showQuestion);

  // One question at a time, even if calls were ever asked about concurrently.
  return (request, signal) => {
    const next = queue.then(async () => {
      // A one-shot run's wait line is erased while the question is on the terminal.
      const release = holdWaitStatus();
      try {
        return await askOnce(request, signal);
      } finally {
        release();
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };
}

type Show = (request: ApprovalRequest) => void;

function askByKey(input: KeyInput, options: TerminalApprovalOptions, style: Theme, show: Show): AskApproval {
  const out = options.output;
  const interrupt = options.interrupt ?? interruptThisProcess;
  return async (request, signal) => {
    if (signal.aborted) return 'no';
    show(request);
    out.write(`${keysLine(request.always, style, ONE_SHOT_CANCEL)} `);
    const read = await readKeyAnswer(input, (key) => keyChoice(key, Boolean(request.always)), signal);
    if ('ended' in read) {
      out.write(`\n  ${style.dim(`${read.ended}: no`)}\n`);
      return 'no';
    }
    if (read.chosen === 'interrupt' || read.chosen === 'escape') {
      out.write(`\n  ${style.yellow('denied')} ${style.dim(`(${read.chosen === 'escape' ? 'Esc' : 'Ctrl-C'}: the run stops)`)}\n`);
      interrupt();
      return 'no';
    }
    const answer = read.chosen;
    out.write(`\n  ${verdict(answer, request.always, style)}\n`);
    return answer;
  };
}

function askByLine(options: TerminalApprovalOptions, style: Theme, show: Show): AskApproval {
  const interrupts = options.interrupts ?? process;
  // After end of input (Ctrl-D) a new readline never closes, so a question would wait forever.
  let ended = (options.input as Partial<NodeJS.ReadStream>).readableEnded === true;
  options.input.once('end', () => (ended = true));

  // readline loads with the first question: most runs ask none.
  return async (request, signal) => {
    const { createInterface } = await import('node:readline');
    return new Promise<ApprovalAnswer>((resolve) => {
      if (signal.aborted) return resolve('no');
      const out = options.output;
      show(request);
      if (ended) {
        out.write(`  ${style.dim('no input left to answer: no')}\n`);
        return resolve('no');
      }
      const always = request.always ? `, ${style.bold('a')}lways allow ${visibleText(request.always)} this session` : '';
      const rl = createInterface({ input: options.input, output: out, terminal: false });
      let answered = false;
      const finish = (answer: ApprovalAnswer) => {
        if (answered) return;
        answered = true;
        signal.removeEventListener('abort', onAbort);
        giveBackInterrupts();
        resolve(answer);
        rl.close();
      };
      const giveBackInterrupts = takeInterrupts(interrupts, () => {
        out.write(`\n  ${style.dim('Ctrl-C: no')}\n`);
        finish('no');
      });
      const onAbort = () => finish('no');
      signal.addEventListener('abort', onAbort, { once: true });
      rl.on('close', () => finish('no'));
      const prompt = () => {
        out.write(`  Allow? ${style.bold('y')}es, ${style.bold('n')}o${always} [y/n${request.always ? '/a' : ''}, Enter = no]: `);
        rl.once('line', (line) => {
          const answer = parseApprovalAnswer(line);
          if (answer === undefined || (answer === 'always' && !request.always)) return prompt();
          finish(answer);
        });
      };
      prompt();
    });
  };
}

/**
 * While a question waits, Ctrl-C answers it instead of reaching the run's handler (which would
 * abort the run); the handlers are given back, in order, once it is answered.
 */
function takeInterrupts(interrupts: NodeJS.EventEmitter, onInterrupt: () => void): () => void {
  const held = interrupts.rawListeners('SIGINT') as Array<(...args: unknown[]) => void>;
  interrupts.removeAllListeners('SIGINT');
  interrupts.on('SIGINT', onInterrupt);
  return () => {
    interrupts.off('SIGINT', onInterrupt);
    for (const listener of held) interrupts.on('SIGINT', listener);
  };
}
