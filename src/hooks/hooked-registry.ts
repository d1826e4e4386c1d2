import type { ToolCall } from '../contracts/messages.js';
import type { AuthorizeRequest, Tool, ToolResult } from '../contracts/tool.js';
import { parseArguments, ToolRegistry, type InvokeOptions, type RegistryOptions } from '../tools/registry.js';
import type { Hooks } from './hooks.js';

/**
 * A registry whose calls pass the PreToolUse and PostToolUse hooks: before, a hook may block
 * the call (its reason goes to the model) or allow it without the permission prompt; after, it
 * sees the result and may add to it — PostToolUse after a call that worked, PostToolUseFailure
 * (with `error`) after one that failed, neither after one that was denied (it did not run), as in
 * Claude Code. The loop knows nothing of hooks.
 */
export class HookedRegistry extends ToolRegistry {
  constructor(
    private readonly hooks: Hooks,
    tools: Iterable<Tool> = [],
    options: RegistryOptions = {},
  ) {
    super(tools, options);
  }

  override async invoke(call: ToolCall, options: InvokeOptions = {}): Promise<ToolResult> {
    if (!this.get(call.name) || (!this.hooks.has('PreToolUse') && !this.hooks.has('PostToolUse') && !this.hooks.has('PostToolUseFailure'))) return super.invoke(call, options);
    const parsed = parseArguments(call.arguments);
    const input = parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : {};
    const fields = { tool_use_id: call.id };
    const pre = await this.hooks.run('PreToolUse', fields, { name: call.name, input });
    if (pre.blocked !== undefined) return { content: `Blocked by a PreToolUse hook: ${pre.blocked}`, isError: true, status: 'denied' };
    // A rewritten call is validated and (unless the hook allowed it) asked about as rewritten, like any call.
    const ran = pre.updatedInput ? { ...call, arguments: JSON.stringify({ ...input, ...pre.updatedInput }) } : call;
    const { authorize } = options;
    // As in Claude Code: "allow" skips the question, "ask" asks even where a rule, a grant or the
    // mode would allow; neither passes the deny rules or plan mode.
    const decision = pre.permissionDecision;
    const hooked =
      decision && authorize
        ? Object.assign((request: AuthorizeRequest) => authorize({ ...request, ...(decision === 'allow' ? { hookAllowed: true } : { hookAsks: pre.askReason ?? 'a PreToolUse hook asks for this call to be confirmed' }) }), { checksEveryCall: authorize.checksEveryCall })
        : authorize;
    const result = await super.invoke(ran, hooked ? { ...options, authorize: hooked } : options);
    const ranInput = pre.updatedInput ? { ...input, ...pre.updatedInput } : input;
    if (result.status === 'denied') return pre.context.length ? { ...result, content: `${result.content}\n\n${pre.context.join('\n')}` } : result;
    const post = result.isError
      ? await this.hooks.run('PostToolUseFailure', { ...fields, error: result.content, is_interrupt: options.signal?.aborted === true }, { name: call.name, input: ranInput })
      : await this.hooks.run('PostToolUse', { ...fields, tool_response: { content: result.content, is_error: false } }, { name: call.name, input: ranInput });
    const notes = [...pre.context, ...post.context, ...(post.blocked !== undefined ? [`${result.isError ? 'PostToolUseFailure' : 'PostToolUse'} hook: ${post.blocked}`] : [])];
    return notes.length ? { ...result, content: `${result.content}\n\n${notes.join('\n')}` } : result;
  }
}
