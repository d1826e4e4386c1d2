import type { AskApproval } from '../../tools/approval.js';
import type { Authorize } from '../../tools/registry.js';

/**
 * The simplest permission policy: ask for every call that needs approval, and remember
 * "always" per tool for the session. The lead's `createPermissionPolicy` replaces it when wired.
 */
export function authorizeByAsking(ask: AskApproval): Authorize {
  const always = new Set<string>();
  return async ({ tool, call, preview, signal }) => {
    if (always.has(tool.name)) return { allowed: true };
    const answer = await ask({ call, tool: tool.name, summary: preview.summary, ...(preview.detail ? { detail: preview.detail } : {}) }, signal);
    if (answer === 'always') always.add(tool.name);
    if (answer === 'no') return { allowed: false, reason: signal.aborted ? 'the run was cancelled' : 'the user declined this call' };
    return { allowed: true };
  };
}
