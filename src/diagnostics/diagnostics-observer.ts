import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { ToolContext } from '../contracts/tool.js';
import type { WriteObserver } from '../tools/coding/shared/observe-write.js';
import { shellEnvironment, type ShellEnvOptions } from '../tools/coding/shell/shell-env.js';
import type { ShellSandbox } from '../tools/coding/shell/shell-sandbox.js';
import { CheckerPermission } from './checker-permission.js';
import { checkerFor, detectCheckers } from './detect-checkers.js';
import type { Checker, Diagnostic, OutputFormat } from './diagnostic.js';
import { diffDiagnostics } from './diff-diagnostics.js';
import { formatDiagnosticChange, formatFirstCheck } from './format-diagnostics.js';
import { lineMap } from './line-map.js';
import { parseDiagnostics } from './parse-diagnostics.js';
import { runChecker } from './run-checker.js';
import { MAX_TEXT_FILE_BYTES } from '../tools/coding/shared/text-file.js';
import { ANYWHERE, readOwnTextAsync, type ReadRule } from '../workspace/read-own-file.js';
import { CheckerServer, type SourceOverlay } from './tsc-server.js';

/** The file an edit tool is writing: its path was confined by the tool; a FIFO swapped in meanwhile is still refused. */
const editedFile: ReadRule = { within: ANYWHERE, maxBytes: MAX_TEXT_FILE_BYTES };

/** A checker named in config: a shell command whose output is read in `format` (default: tsc-style or file:line:col lines). */
export interface ConfiguredChecker {
  command: string;
  format?: OutputFormat;
  /** Seconds before it is stopped. */
  timeout?: number;
  /** Extensions it checks (".py"); default every file. */
  extensions?: string[];
}

export type DiagnosticsSetting = 'auto' | 'off' | ConfiguredChecker;

export interface DiagnosticsOptions extends ShellEnvOptions {
  setting: DiagnosticsSetting;
  /** Per checker run; default 30 s (a configured `timeout` wins). */
  timeoutMs?: number;
  sandbox?: ShellSandbox;
  env?: NodeJS.ProcessEnv;
  /** Run the checker when no permission policy is in force (library use). Default true; the CLI says false. */
  runUnchecked?: boolean;
}

export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 30_000;

/**
 * The edit tools' write observer that reports what an edit broke or fixed; undefined when off.
 * Nothing runs before the write: the old content is read, the bytes land, then the checker runs.
 * The baseline to compare with is the checker's last run (a project-wide checker's whatever the
 * file; a per-file checker's while the file's content is unchanged). Without one (the first edit),
 * the TypeScript checker checks the old text laid over the new file, then the new; a command
 * checker, which cannot see old text, reports the problems in the edited file, labelled as such.
 */
export function createDiagnosticsObserver(options: DiagnosticsOptions): WriteObserver | undefined {
  if (options.setting === 'off') return undefined;
  const env = options.env ?? process.env;
  const configured = typeof options.setting === 'object' ? options.setting : undefined;
  const timeoutMs = configured?.timeout !== undefined ? Math.round(configured.timeout * 1000) : (options.timeoutMs ?? DEFAULT_DIAGNOSTICS_TIMEOUT_MS);
  const checkers = new Map<string, Checker[]>();
  const found = (workspace: string) => {
    let list = checkers.get(workspace);
    if (!list) checkers.set(workspace, (list = configured ? [configuredChecker(configured)] : detectCheckers(workspace, env)));
    return list;
  };
  const permission = new CheckerPermission(options.runUnchecked ?? true);
  const baselines = new Map<string, { key: string; diagnostics: Diagnostic[] }>();
  const childEnv = shellEnvironment(env, options);
  const servers = new Map<string, CheckerServer>();
  const server = (checker: Checker, workspace: string) => {
    const key = `${workspace}\u0000${checker.command}`;
    let found = servers.get(key);
    if (!found) servers.set(key, (found = new CheckerServer(checker.argv)));
    return found;
  };

  const check = async (checker: Checker, file: string, context: ToolContext, overlay?: SourceOverlay) => {
    const argv = checker.argv.map((arg) => arg.replaceAll('{file}', file));
    const runOptions = { cwd: context.workspace, env: childEnv, timeoutMs, signal: context.signal, ...(options.sandbox ? { sandbox: options.sandbox } : {}) };
    const run = checker.persistent ? await server(checker, context.workspace).check(runOptions, overlay) : await runChecker(argv, runOptions);
    if (run.error) return { note: `(Diagnostics: ${checker.name} could not start: ${run.error}.)` };
    if (run.stopped === 'time') return { note: `(Diagnostics: ${checker.name} did not finish within ${formatSeconds(timeoutMs)} and was stopped; no diagnostics for this edit.)` };
    if (run.stopped === 'abort') return { note: `(Diagnostics: ${checker.name} was stopped with the call.)` };
    return { diagnostics: parseDiagnostics(checker.format, run.output, context.workspace) };
  };

  return async (absolute, context) => {
    const checker = checkerFor(found(context.workspace), absolute);
    if (!checker) return undefined;
    // The one thing done before the write: the old text, which the baseline and line moves need.
    const beforeText = await readOwnTextAsync(absolute, editedFile).catch(() => undefined);
    return async () => {
      const { decision, fresh } = await permission.check(checker, context);
      if (!decision.allowed) return fresh ? `(Diagnostics: ${checker.name} was not run: ${decision.reason}.)` : undefined;
      const file = relative(context.workspace, absolute).split('\\').join('/');
      const baselineKey = checker.scope === 'project' ? checker.command : `${checker.command}\u0000${file}`;
      const contentKey = checker.scope === 'project' ? '' : hash(beforeText ?? '');
      let before = baselines.get(baselineKey)?.key === contentKey ? baselines.get(baselineKey)!.diagnostics : undefined;
      if (!before && checker.scope === 'file' && !beforeText) before = [];
      if (!before && checker.persistent) {
        const old = await check(checker, file, context, { path: absolute, text: beforeText ?? null });
        if (!old.diagnostics) return old.note;
        before = old.diagnostics;
      }
      const result = await check(checker, file, context);
      if (!result.diagnostics) {
        baselines.delete(baselineKey);
        return result.note;
      }
      const afterText = await readOwnTextAsync(absolute, editedFile).catch(() => '');
      baselines.set(baselineKey, { key: checker.scope === 'project' ? '' : hash(afterText), diagnostics: result.diagnostics });
      if (!before) return formatFirstCheck(checker.name, file, result.diagnostics);
      const change = diffDiagnostics(before, result.diagnostics, { file, moveLine: lineMap(beforeText ?? '', afterText) });
      return formatDiagnosticChange(checker.name, change, result.diagnostics.length);
    };
  };
}

function configuredChecker(configured: ConfiguredChecker): Checker {
  const shell = process.platform === 'win32' ? ['cmd.exe', '/d', '/s', '/c'] : ['/bin/sh', '-c'];
  return {
    name: 'diagnostics',
    command: configured.command,
    argv: [...shell, configured.command],
    format: configured.format ?? 'lines',
    scope: 'project',
    extensions: (configured.extensions ?? []).map((ext) => (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase()),
  };
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
