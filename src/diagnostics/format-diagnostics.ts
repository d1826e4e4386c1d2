import type { Diagnostic } from './diagnostic.js';
import type { DiagnosticChange } from './diff-diagnostics.js';

/** How many of each list the tool result shows; the model can run the checker itself for more. */
const SHOWN = 10;
const MESSAGE_CHARS = 300;

/** The addendum to an edit's result; undefined when the edit changed nothing the checker sees. */
export function formatDiagnosticChange(checker: string, change: DiagnosticChange, remaining: number): string | undefined {
  const { introduced, fixed } = change;
  if (introduced.length === 0 && fixed.length === 0) return undefined;
  const lines: string[] = [];
  if (introduced.length) {
    lines.push(`${checker}: this edit introduced ${count(introduced.length, 'problem')}:`);
    lines.push(...list(introduced));
  }
  if (fixed.length) {
    lines.push(`${checker}: this edit fixed ${count(fixed.length, 'problem')}:`);
    lines.push(...list(fixed));
  }
  if (introduced.length) lines.push(`(${count(remaining, 'problem')} reported in all.)`);
  return lines.join('\n');
}

function list(diagnostics: readonly Diagnostic[]): string[] {
  const shown = diagnostics.slice(0, SHOWN).map(describe);
  if (diagnostics.length > SHOWN) shown.push(`  … and ${diagnostics.length - SHOWN} more`);
  return shown;
}

export function describe(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}${d.column > 0 ? `:${d.column}` : ''}` : d.file;
  const message = d.message.length > MESSAGE_CHARS ? `${d.message.slice(0, MESSAGE_CHARS)}…` : d.message;
  return `  ${where} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${message}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
