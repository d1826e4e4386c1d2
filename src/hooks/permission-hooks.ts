import type { AskApproval } from '../tools/approval.js';
import { parseArguments } from '../tools/registry.js';
import { CLAUDE_SHAPE } from './claude-shape.js';
import type { Hooks } from './hooks.js';

/**
 * Claude Code's two events around a permission question, wrapped around whatever asks (the
 * terminal, the TUI, the editor): PermissionRequest first, which may answer it (`decision.behavior`
 * allow or deny) so nobody is asked; otherwise Notification (`permission_prompt`), then the question.
 * With nobody to ask (a headless run) there is no question, so neither runs, as with `claude -p`.
 */
export function askThroughHooks(hooks: Hooks | undefined, ask: AskApproval | undefined): AskApproval | undefined {
  if (!ask || !hooks || (!hooks.has('PermissionRequest') && !hooks.has('Notification'))) return ask;
  return async (request, signal) => {
    const parsed = parseArguments(request.call.arguments);
    const input = parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : {};
    const decided = await hooks.run('PermissionRequest', { tool_use_id: request.call.id, permission_suggestions: [] }, { name: request.tool, input });
    if (decided.answered === 'deny' || decided.blocked !== undefined) return 'no';
    if (decided.answered === 'allow') return 'yes';
    await hooks.run('Notification', { message: `vibe-agent needs your permission to use ${CLAUDE_SHAPE.toolName(request.tool)}`, notification_type: 'permission_prompt' }, undefined, 'permission_prompt');
    return ask(request, signal);
  };
}
