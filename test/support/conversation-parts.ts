import type { ConversationParts } from '../../src/conversation/conversation-parts.js';
import { createPermissionPolicy } from '../../src/permissions/permission-policy.js';
import { ToolScope } from '../../src/skills/tool-scope.js';

/** A conversation's parts for a library test: the given ones, the rest plain (no hooks or commands, the ask mode, no checkpoints). */
export function testConversationParts(given: Pick<ConversationParts, 'workspace' | 'provider' | 'tools' | 'env'> & Partial<ConversationParts>): ConversationParts {
  return {
    model: 'gpt-4o-mini',
    preset: { name: 'openai', protocol: undefined },
    system: 'You are a test.',
    context: {},
    hooks: undefined,
    commands: [],
    scope: new ToolScope(),
    maxTurns: 5,
    temperature: 0,
    cacheTtlMs: 300_000,
    authorize: (ask) => createPermissionPolicy({ mode: 'ask', ...(ask ? { ask } : {}), protectedDirs: [] }),
    asks: true,
    session: { kind: 'new' },
    checkpoints: false,
    redact: (text) => text,
    warn: () => {},
    ...given,
  };
}
