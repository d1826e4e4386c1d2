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

/**
 * The first run of a checker that cannot check old text (a command): nothing to compare with, so
 * the problems in the edited file are listed and said to be all of them, not what the edit did.
 */
export function formatFirstCheck(checker: string, file: string, diagnostics: readonly Diagnostic[]): string | undefined {
  const here = diagnostics.filter((d) => d.file === file);
  if (here.length === 0) return undefined;
  return [`${checker}: first check (no earlier run to compare with), so these are all ${count(here.length, 'problem')} in ${file}, not only what this edit did:`, ...list(here)].join('\n');
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
