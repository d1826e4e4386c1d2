import type { Authorize } from '../contracts/tool.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { RunShell } from './expand-command.js';

/**
 * A command's shell interpolation run as a call of the bash tool through the registry, so the
 * permission policy decides exactly as for a call the model makes (denied without approval).
 */
export function shellThroughTool(registry: ToolRegistry, options: { authorize: Authorize; workspace: string; signal: AbortSignal }): RunShell {
  let count = 0;
  return async (command) => {
    if (!registry.get('bash')) return { ok: false, reason: 'the bash tool is not enabled in this run' };
    const call = { id: `command-shell-${++count}`, name: 'bash', arguments: JSON.stringify({ command }) };
    const result = await registry.invoke(call, options);
    if (result.status === 'denied') return { ok: false, reason: result.content };
    if (result.isError) return { ok: false, reason: `it failed: ${result.content}` };
    // The bash tool's footer on success says nothing the prompt needs.
    return { ok: true, output: result.content.replace(/\n?exit code: 0$/, '') };
  };
}
