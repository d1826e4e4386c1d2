import type { ApprovalAnswer, AskApproval } from '../../tools/approval.js';
import { colourDiffLine, looksLikeDiff } from '../display/diff-colour.js';
import { createTheme } from '../display/theme.js';
import { visibleLines, visibleText } from '../display/visible-text.js';

export interface TerminalApprovalOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  color: boolean;
  /** Longest detail (diff, command) shown before it is folded. */
  maxDetailLines?: number;
  /** Where Ctrl-C arrives as SIGINT (the terminal is in line mode); default `process`. */
  interrupts?: NodeJS.EventEmitter;
}

export function parseApprovalAnswer(text: string): ApprovalAnswer | undefined {
  const answer = text.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'a' || answer === 'always') return 'always';
  if (answer === '' || answer === 'n' || answer === 'no') return 'no';
  return undefined;
}

/**
 * Asks on the terminal (stderr, so stdout keeps only the answer). Enter alone means no, and so
 * does Ctrl-C while the question waits: the call is denied and the run goes on, as in the
 * interactive session; a Ctrl-C at any other time aborts the run.
 */
export function createTerminalApproval(options: TerminalApprovalOptions): AskApproval {
  const style = createTheme(options.color);
  const interrupts = options.interrupts ?? process;
  const maxLines = options.maxDetailLines ?? 60;
  let queue = Promise.resolve<unknown>(undefined);
  // After end of input (Ctrl-D) a new readline never closes, so a question would wait forever.
  let ended = (options.input as Partial<NodeJS.ReadStream>).readableEnded === true;
  options.input.once('end', () => (ended = true));

  // readline loads with the first question: most runs ask none.
  const askOnce: AskApproval = async (request, signal) => {
    const { createInterface } = await import('node:readline');
    return new Promise<ApprovalAnswer>((resolve) => {
      if (signal.aborted) return resolve('no');
      const out = options.output;
      const [first, ...more] = visibleLines(request.summary);
      out.write(`\n${style.yellow('?')} ${style.bold(request.tool)} ${first}\n${more.map((line) => `  ${line}\n`).join('')}`);
      if (request.detail) {
        const lines = visibleText(request.detail).replace(/\n$/, '').split('\n');
        const diff = looksLikeDiff(lines);
        out.write(`${lines.slice(0, maxLines).map((line) => (diff ? colourDiffLine(line, style) : line)).join('\n')}\n`);
        if (lines.length > maxLines) out.write(style.dim(`… ${lines.length - maxLines} more lines\n`));
      }
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

  // One question at a time, even if calls were ever asked about concurrently.
  return (request, signal) => {
    const next = queue.then(() => askOnce(request, signal));
    queue = next.catch(() => undefined);
    return next;
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
