import { createInterface } from 'node:readline';
import type { ApprovalAnswer, AskApproval } from '../tools/approval.js';
import { createStyle, type Style } from './display/style.js';
import { visibleLines, visibleText } from './display/visible-text.js';

export interface TerminalApprovalOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  color: boolean;
  /** Longest detail (diff, command) shown before it is folded. */
  maxDetailLines?: number;
}

/** Colours a unified diff: additions green, removals red, hunk headers cyan. */
export function colorDiff(text: string, style: Style): string {
  return text
    .split('\n')
    .map((line) =>
      line.startsWith('+++') || line.startsWith('---') ? style.bold(line)
      : line.startsWith('+') ? style.green(line)
      : line.startsWith('-') ? style.red(line)
      : line.startsWith('@@') ? style.cyan(line)
      : line,
    )
    .join('\n');
}

export function parseApprovalAnswer(text: string): ApprovalAnswer | undefined {
  const answer = text.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'a' || answer === 'always') return 'always';
  if (answer === '' || answer === 'n' || answer === 'no') return 'no';
  return undefined;
}

/** Asks on the terminal (stderr, so stdout keeps only the answer). Enter alone means no. */
export function createTerminalApproval(options: TerminalApprovalOptions): AskApproval {
  const style = createStyle(options.color);
  const maxLines = options.maxDetailLines ?? 60;
  let queue = Promise.resolve<unknown>(undefined);
  // After end of input (Ctrl-D) a new readline never closes, so a question would wait forever.
  let ended = (options.input as Partial<NodeJS.ReadStream>).readableEnded === true;
  options.input.once('end', () => (ended = true));

  const askOnce: AskApproval = (request, signal) =>
    new Promise<ApprovalAnswer>((resolve) => {
      if (signal.aborted) return resolve('no');
      const out = options.output;
      const [first, ...more] = visibleLines(request.summary);
      out.write(`\n${style.yellow('?')} ${style.bold(request.tool)} ${first}\n${more.map((line) => `  ${line}\n`).join('')}`);
      if (request.detail) {
        const lines = visibleText(request.detail).replace(/\n$/, '').split('\n');
        const shown = lines.slice(0, maxLines).join('\n');
        out.write(`${colorDiff(shown, style)}\n`);
        if (lines.length > maxLines) out.write(style.dim(`… ${lines.length - maxLines} more lines\n`));
      }
      if (ended) {
        out.write(`  ${style.dim('no input left to answer: no')}\n`);
        return resolve('no');
      }
      const always = request.always ? `, ${style.bold('a')}lways allow ${visibleText(request.always)} this session` : '';
      const rl = createInterface({ input: options.input, output: out, terminal: false });
      const finish = (answer: ApprovalAnswer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
        rl.close();
      };
      const onAbort = () => finish('no');
      signal.addEventListener('abort', onAbort, { once: true });
      rl.on('close', () => resolve('no'));
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

  // One question at a time, even if calls were ever asked about concurrently.
  return (request, signal) => {
    const next = queue.then(() => askOnce(request, signal));
    queue = next.catch(() => undefined);
    return next;
  };
}
