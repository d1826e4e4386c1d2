import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diffDiagnostics } from '../diagnostics/diff-diagnostics.js';
import { formatDiagnosticChange } from '../diagnostics/format-diagnostics.js';
import { lineMap } from '../diagnostics/line-map.js';
import type { WriteObserver } from '../tools/coding/shared/observe-write.js';
import type { LspClient } from './lsp-client.js';
import { answersDiagnosticsDirectly, tsserverDiagnostics } from './tsserver-diagnostics.js';

/** How long the edited file's diagnostics are waited for: a baseline before the write, the new ones after. */
export const PUBLISH_WAIT_MS = 10_000;

/**
 * Diagnostics after an edit from the language server that has the file open: its last publication
 * before the write is the baseline, the first one after the change is compared with it, and only
 * what the edit introduced or fixed is reported, lines moved by the edit followed (as the checkers'
 * diff does). It sees the edited file only: problems the edit causes in other files are not listed.
 */
export function lspDiagnosticsObserver(client: LspClient, name: string, publishes: boolean): WriteObserver {
  if (answersDiagnosticsDirectly(client)) return askedObserver(client, name);
  return async (absolute, context) => {
    // A server known to publish (the built-in ones, one seen to) is waited for; another is not, or every write would wait.
    const wait = publishes || client.publishes;
    const baseline = client.publishedFor(absolute) ?? (wait ? await client.nextPublication(absolute, 0, PUBLISH_WAIT_MS, context.signal).then((items) => items && client.publishedFor(absolute)) : undefined);
    if (!baseline) return undefined;
    const beforeText = await readFile(absolute, 'utf8').catch(() => '');
    return async () => {
      await client.sync(absolute);
      const after = await client.nextPublication(absolute, baseline.count, PUBLISH_WAIT_MS, context.signal);
      if (!after) return `(Diagnostics: ${name} did not report on this edit in time.)`;
      return report(name, context.workspace, absolute, beforeText, baseline.items, after);
    };
  };
}

/**
 * The same for typescript-language-server, whose publications are neither known complete nor known
 * current (`tsserverDiagnostics`): the file's diagnostics are asked for before the write and after it.
 */
function askedObserver(client: LspClient, name: string): WriteObserver {
  return async (absolute, context) => {
    await client.sync(absolute);
    const baseline = await tsserverDiagnostics(client, absolute, context.signal).catch(() => undefined);
    if (!baseline) return undefined;
    const beforeText = await readFile(absolute, 'utf8').catch(() => '');
    return async () => {
      await client.sync(absolute);
      const after = await tsserverDiagnostics(client, absolute, context.signal).catch(() => undefined);
      if (!after) return `(Diagnostics: ${name} did not report on this edit in time.)`;
      return report(name, context.workspace, absolute, beforeText, baseline, after);
    };
  };
}

async function report(name: string, workspace: string, absolute: string, beforeText: string, baseline: readonly LspDiagnostic[], after: readonly LspDiagnostic[]): Promise<string | undefined> {
  const file = relative(workspace, absolute).split('\\').join('/');
  const afterText = await readFile(absolute, 'utf8').catch(() => '');
  const before = problems(baseline, file);
  const now = problems(after, file);
  return formatDiagnosticChange(name, diffDiagnostics(before, now, { file, moveLine: lineMap(beforeText, afterText) }), now.length);
}

function problems(items: readonly LspDiagnostic[], file: string): Diagnostic[] {
  return items
    .filter((item) => item.severity === undefined || item.severity <= 2)
    .map((item) => ({ file, line: item.range.start.line + 1, column: item.range.start.character + 1, code: item.code === undefined ? '' : `${item.source === 'typescript' ? 'TS' : ''}${item.code}`, message: typeof item.message === 'string' ? item.message : item.message.value, severity: item.severity === 2 ? 'warning' : 'error' }));
}
