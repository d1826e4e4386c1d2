/** The library's runtime exports are a curated list: adding one is a decision, made here too. */
import { describe, expect, it } from 'vitest';

const PUBLIC_API = [
  'AnthropicProvider',
  'BUILTIN_AGENTS',
  'Budget',
  'PLAN_MODE_PROMPT',
  'TodoList',
  'createTodoTools',
  'loadAgents',
  'parseAgentFile',
  'withSubagents',
  'ConfigError',
  'DEFAULT_SYSTEM_PROMPT',
  'DirectoryOutputStore',
  'FileReadTracker',
  'GoogleProvider',
  'InteractiveSession',
  'MemoryOutputStore',
  'OpenAIProvider',
  'PRESETS',
  'ProviderError',
  'ScriptedProvider',
  'ToolRegistry',
  'bashTool',
  'buildSystemPrompt',
  'calculatorTool',
  'collectMemorySources',
  'collectSecrets',
  'compactHistory',
  'courseTools',
  'createContextPolicy',
  'createFileTools',
  'createPermissionPolicy',
  'createProvider',
  'createRedactor',
  'createRememberTool',
  'createSearchTools',
  'createSession',
  'createTheme',
  'currentTimeTool',
  'defineTool',
  'fetchUrlTool',
  'findSession',
  'listSessions',
  'promptJsonProvider',
  'readSessionFile',
  'rememberTool',
  'resolveProvider',
  'resumeSession',
  'run',
  'runAgent',
  'withSystemPrompt',
];

describe('public API', () => {
  it('exports exactly the curated names (type-only exports are not visible at runtime)', async () => {
    const api = await import('../src/index.js');
    expect(Object.keys(api).sort()).toEqual([...PUBLIC_API].sort());
  });
});
