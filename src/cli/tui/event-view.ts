import type { ConversationEvent } from '../../conversation/conversation-types.js';
import { agentEventOf } from '../../conversation/prompt-events.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';
import type { ConversationState } from './conversation-state.js';
import type { TodoPin } from './todo-pin.js';
import type { TurnView } from './turn-view.js';

/** Where the events' lines go: the scrollback, and a redraw of the live area. */
export interface EventScreen {
  commit(lines: string[]): void;
  render(): void;
  width(): number;
}

/**
 * The terminal's rendering of a conversation's numbered events, whatever their source (a local
 * conversation's stream, or a server's for a session attached to): the loop's events go to the
 * running turn's view, the status line's totals and the pinned checklist; the conversation's own
 * notices (a refused prompt, what a prompt attached, a Stop hook's continuation) become lines.
 */
export class EventView {
  /** The turn being shown, if one is. */
  turn: TurnView | undefined;
  /** Extra notices a feature renders itself (/goal's): true when it took the event. */
  readonly extra: Array<(event: ConversationEvent) => boolean> = [];

  constructor(
    private readonly screen: EventScreen,
    private readonly theme: Theme,
    private readonly state: ConversationState,
    private readonly todos: TodoPin,
  ) {}

  handle(event: ConversationEvent): void {
    const t = this.theme;
    const agentEvent = agentEventOf(event);
    if (agentEvent) {
      this.state.track(agentEvent);
      this.todos.track(agentEvent);
      this.turn?.handle(agentEvent, this.screen.width());
      this.screen.render();
      return;
    }
    if (this.extra.some((take) => take(event))) return;
    switch (event.type) {
      case 'prompt_refused':
        return this.screen.commit([t.red(`✗ ${visibleText(event.reason)}`)]);
      case 'prompt_notes':
        return this.screen.commit(event.notes.map((note) => t.dim(`  ⎿ ${visibleText(note)}`)));
      case 'stop_hook_continue':
        return this.screen.commit(['', t.dim(`↻ a Stop hook sent the agent back to work: ${visibleText(event.input.split('\n')[0] ?? '')}`), '']);
      case 'warning':
        return this.screen.commit([t.yellow(`⚠ ${visibleText(event.text)}`)]);
      case 'interrupted':
        return this.screen.commit([t.dim(`The last run was interrupted: ${event.reason}.`)]);
      case 'mode_changed':
        // The status line shows the conversation's mode, whoever changed it.
        return this.screen.render();
      default:
        // Questions are answered through the question desk; their notices need no line.
        return;
    }
  }
}
