import type { ToolCall } from '../contracts/messages.js';
import type { Tool, ToolResult } from '../contracts/tool.js';
import { ToolRegistry } from '../tools/registry.js';
import type { RecordedResult } from './recorded-run.js';

/**
 * The current tools' schemas (what the model is offered now), with each call answered by the result
 * recorded for it instead of running: a replay runs offline and changes nothing.
 */
export class RecordedToolRegistry extends ToolRegistry {
  constructor(
    tools: Tool[],
    private readonly resultOf: (call: ToolCall) => RecordedResult | undefined,
  ) {
    super(tools);
  }

  override async invoke(call: ToolCall): Promise<ToolResult> {
    const recorded = this.resultOf(call);
    if (!recorded) return { content: `replay: no result was recorded for the call ${call.id} (${call.name}).`, isError: true, status: 'error' };
    return { content: recorded.output, isError: recorded.isError, status: recorded.status };
  }
}
