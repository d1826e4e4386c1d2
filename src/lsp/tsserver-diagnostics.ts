import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LspClient } from './lsp-client.js';

/** A diagnostic as tsserver answers it: 1-based lines and offsets. */
interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/** Whether the server is typescript-language-server, whose tsserver can be asked for a file's diagnostics directly. */
export function answersDiagnosticsDirectly(client: LspClient): boolean {
  return (client.capabilities.executeCommandProvider?.commands ?? []).includes('typescript.tsserverRequest');
}

/**
 * The file's syntax and semantic diagnostics as tsserver sees its text now, asked for (not waited
 * for). typescript-language-server publishes them kind by kind, each publication debounced, and a
 * request that arrives meanwhile interrupts the cycle and starts it again; so its latest
 * publication may hold the syntax ones alone, and one that arrives after a change may still be
 * about the text before it. A request answered after the change was sent is neither.
 */
export async function tsserverDiagnostics(client: LspClient, absolute: string, signal: AbortSignal): Promise<Diagnostic[]> {
  const ask = async (command: string) => {
    const answer = await client.request<{ body?: TsDiagnostic[] } | null>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, { file: absolute }] }, signal);
    return answer?.body ?? [];
  };
  const syntax = await ask('syntacticDiagnosticsSync');
  const semantic = await ask('semanticDiagnosticsSync');
  return [...syntax, ...semantic].map(toLsp);
}

function toLsp(item: TsDiagnostic): Diagnostic {
  return {
    range: { start: { line: item.start.line - 1, character: item.start.offset - 1 }, end: { line: item.end.line - 1, character: item.end.offset - 1 } },
    message: item.text,
    severity: SEVERITY[item.category ?? 'error'] ?? 1,
    source: item.source ?? 'typescript',
    ...(item.code !== undefined ? { code: item.code } : {}),
  };
}
