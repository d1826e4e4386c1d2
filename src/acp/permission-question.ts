import type { AgentContext, PermissionOption } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, AskApproval } from '../tools/approval.js';

const ALLOW_ONCE: PermissionOption = { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' };
const REJECT_ONCE: PermissionOption = { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' };

/**
 * The permission policy's question, asked through `session/request_permission`. "Always" is offered
 * only when the policy has a scope to grant (the same rule the terminal's "a" adds); there is no
 * "reject always", as the policy keeps no standing refusals. A cancelled question is a no.
 */
export function editorApproval(client: AgentContext, sessionId: () => string): AskApproval {
  return async (request, signal): Promise<ApprovalAnswer> => {
    if (signal.aborted) return 'no';
    const options = [ALLOW_ONCE, ...(request.always ? [{ optionId: 'allow_always', name: `Always allow ${request.always}`, kind: 'allow_always' } satisfies PermissionOption] : []), REJECT_ONCE];
    const response = await client.request(
      'session/request_permission',
      { sessionId: sessionId(), toolCall: { toolCallId: request.call.id, title: request.summary }, options },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    ).catch(() => undefined);
    if (signal.aborted || response?.outcome.outcome !== 'selected') return 'no';
    if (response.outcome.optionId === 'allow_once') return 'yes';
    if (response.outcome.optionId === 'allow_always' && request.always) return 'always';
    return 'no';
  };
}
