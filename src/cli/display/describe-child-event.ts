import type { AgentEvent } from '../../contracts/events.js';
import type { DisplayLine, Span } from './display-line.js';

type ChildEvent = AgentEvent & { agent: string };

/**
 * A subagent's event, folded into its parent's output: its calls, their results and how it ended,
 * each under the child's name; its text, turns and usage are not lines of their own.
 */
export function describeChildEvent(event: ChildEvent, own: (event: AgentEvent) => DisplayLine | undefined): DisplayLine | undefined {
  const name = event.agent.replace(/^main\//, '');
  const gutter: Span[] = [{ text: '  │ ', tone: 'dim' }, { text: name, tone: 'accent' }, { text: ' ', tone: 'plain' }];
  switch (event.type) {
    case 'run_start':
      return [{ text: '  ┌ ', tone: 'dim' }, { text: name, tone: 'accent' }, { text: ` started (${event.model})`, tone: 'dim' }];
    case 'tool_call_start':
    case 'tool_call_end': {
      const line = own({ ...event, agent: undefined } as AgentEvent);
      return line ? [...gutter, ...line] : undefined;
    }
    case 'stop': {
      const cost = event.cost === undefined ? '' : `, $${event.cost.toFixed(4)}`;
      const tokens = event.usage.inputTokens + event.usage.outputTokens;
      const how = event.reason === 'answered' ? 'done' : `stopped (${event.reason})`;
      return [{ text: '  └ ', tone: 'dim' }, { text: name, tone: 'accent' }, { text: ` ${how}: ${event.turns} turns, ${tokens} tokens${cost}`, tone: event.reason === 'answered' ? 'dim' : 'warning' }];
    }
    default:
      return undefined;
  }
}
