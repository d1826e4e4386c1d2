import { openConversation, type ConversationCore } from '../../src/conversation/open-conversation.js';
import type { ConversationParts } from '../../src/conversation/conversation-parts.js';
import type { InteractiveServices } from '../../src/cli/tui/services.js';
import type { Provider } from '../../src/contracts/provider.js';
import { createPermissionPolicy, type PermissionMode } from '../../src/permissions/permission-policy.js';
import { ToolScope } from '../../src/skills/tool-scope.js';
import type { AskApproval } from '../../src/tools/approval.js';
import { ToolRegistry } from '../../src/tools/registry.js';

export interface TestConversationOptions {
  tools?: ToolRegistry;
  system?: string;
  workspace?: string;
  mode?: PermissionMode;
  /** More of the conversation's parts (custom commands, hooks, a context policy). */
  parts?: Partial<ConversationParts>;
}

/**
 * The services of an in-process interactive session, with a real conversation core (no session
 * file) around `provider`; `over` replaces any of them (a test's /resume, /compact or rewind).
 */
export async function testServices(provider: Provider, options: TestConversationOptions = {}, over: Partial<InteractiveServices> = {}): Promise<InteractiveServices> {
  let ask: AskApproval | undefined;
  const permissions = createPermissionPolicy({ mode: options.mode ?? 'ask', ask: (request, signal) => (ask ? ask(request, signal) : Promise.resolve('no')), protectedDirs: [] });
  const typedPermissions = createPermissionPolicy({ mode: options.mode ?? 'ask', ask: async () => 'yes', protectedDirs: [] });
  const open = () =>
    openConversation({
      workspace: options.workspace ?? '/tmp/project',
      provider,
      model: 'test-model',
      preset: { name: 'openai', protocol: undefined },
      tools: options.tools ?? new ToolRegistry(),
      system: options.system ?? 'You are a test.',
      context: {},
      hooks: undefined,
      commands: [],
      scope: new ToolScope(),
      maxTurns: 5,
      temperature: 0,
      cacheTtlMs: 300_000,
      authorize: (next) => {
        ask = next;
        return permissions;
      },
      asks: true,
      session: { kind: 'none' },
      checkpoints: false,
      env: {},
      redact: (text) => text,
      warn: () => {},
      ...options.parts,
    });
  let conversation: ConversationCore = await open();
  return {
    conversation: () => conversation,
    permissions,
    typedPermissions,
    clear: async () => {
      await conversation.close('clear');
      conversation = await open();
    },
    resume: async () => {
      throw new Error('no saved sessions here.');
    },
    compact: async (messages) => ({ messages, compacted: false }),
    listSessions: async () => [],
    memory: async () => [],
    skills: () => [],
    customCommands: () => [],
    imagePaste: () => undefined,
    imagePaths: () => [],
    contextWindow: () => undefined,
    cost: () => undefined,
    spentSoFar: () => undefined,
    models: () => ['test-model'],
    modelCatalog: () => undefined,
    mcpServers: () => [],
    backgroundJobs: () => [],
    killBackgroundJob: async () => false,
    checkpoints: async () => [],
    checkpointNumbers: () => [],
    rewind: async () => ({ lines: ['Nothing to rewind: this session has no prompts yet.'] }),
    goals: {
      setup: async () => {
        throw new Error('no judge in this test.');
      },
      unfinished: () => undefined,
    },
    setNotify: () => {},
    moveToBackground: async () => {
      throw new Error('no session server in this test.');
    },
    close: () => conversation.close('prompt_input_exit'),
    ...over,
  };
}
