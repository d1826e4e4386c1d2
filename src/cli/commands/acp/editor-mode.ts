import type { AcpSession } from '../../../acp/acp-host.js';
import type { Conversation } from '../../../conversation/conversation-types.js';

/**
 * An ACP session's view of its conversation's mode: read from the core, set as the editor's change,
 * and told of every recorded `mode_changed` (the ACP layer turns others' into current_mode_update).
 */
export function editorMode(conversation: Conversation): Pick<AcpSession, 'mode' | 'setMode' | 'onModeChange'> {
  return {
    get mode() {
      return conversation.mode;
    },
    setMode: (mode) => conversation.setMode(mode, { by: 'editor' }),
    onModeChange: (listener) =>
      conversation.subscribe((event) => {
        if (event.type === 'mode_changed') listener(event.mode);
      }),
  };
}
