import { isAbsolute, relative, resolve } from 'node:path';
import type { Diagnostic, OutputFormat } from './diagnostic.js';

/** `src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.` */
const TSC_LINE = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
/** `pkg/a.go:12:3: message`, `a.py:3:1: F401 message`, `a.c:4: error: message`. */
const GENERIC_LINE = /^(.+?):(\d+)(?::(\d+))?:\s*(?:(error|warning)\s*:?\s*)?(.*)$/;

/** Reads a checker's output; paths come out relative to the workspace. Unreadable output gives []. */
export function parseDiagnostics(format: OutputFormat, output: string, workspace: string, cwd: string = workspace): Diagnostic[] {
  const file = (path: string) => toWorkspacePath(path, workspace, cwd);
  switch (format) {
    case 'tsc':
      return parseLines(output, file, true);
    case 'lines':
      return parseLines(output, file, false);
    case 'eslint-json':
      return parseEslint(output, file);
    case 'ruff-json':
      return parseRuff(output, file);
  }
}

function parseLines(output: string, file: (path: string) => string, tscOnly: boolean): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const raw of output.split('\n')) {
    const line = raw.trimEnd();
    const tsc = TSC_LINE.exec(line);
    if (tsc) {
      found.push({ file: file(tsc[1]!), line: Number(tsc[2]), column: Number(tsc[3]), severity: tsc[4] as Diagnostic['severity'], code: tsc[5]!, message: tsc[6]! });
      continue;
    }
    if (tscOnly || line.startsWith('#') || /^\s/.test(line)) continue;
    const generic = GENERIC_LINE.exec(line);
    if (!generic || generic[5]!.trim() === '' || /^\d+$/.test(generic[1]!)) continue;
    found.push({ file: file(generic[1]!), line: Number(generic[2]), column: Number(generic[3] ?? 0), severity: generic[4] === 'warning' ? 'warning' : 'error', code: '', message: generic[5]!.trim() });
  }
  return found;
}

interface EslintFile {
  filePath: string;
  messages: { line?: number; column?: number; ruleId?: string | null; message: string; severity: number }[];
}

function parseEslint(output: string, file: (path: string) => string): Diagnostic[] {
  const files = parseJsonArray<EslintFile>(output);
  return files.flatMap((entry) =>
    (entry.messages ?? []).map((m) => ({ file: file(entry.filePath), line: m.line ?? 0, column: m.column ?? 0, code: m.ruleId ?? '', message: m.message, severity: m.severity >= 2 ? ('error' as const) : ('warning' as const) })),
  );
}

interface RuffEntry {
  filename: string;
  location?: { row: number; column: number };
  code?: string | null;
  message: string;
}

function parseRuff(output: string, file: (path: string) => string): Diagnostic[] {
  return parseJsonArray<RuffEntry>(output).map((entry) => ({ file: file(entry.filename), line: entry.location?.row ?? 0, column: entry.location?.column ?? 0, code: entry.code ?? '', message: entry.message, severity: 'error' as const }));
}

function parseJsonArray<T>(output: string): T[] {
  const start = output.indexOf('[');
  if (start < 0) return [];
  try {
    const value: unknown = JSON.parse(output.slice(start));
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function toWorkspacePath(path: string, workspace: string, cwd: string): string {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const inside = relative(workspace, absolute);
  return (inside.startsWith('..') || isAbsolute(inside) ? absolute : inside).split('\\').join('/');
}
