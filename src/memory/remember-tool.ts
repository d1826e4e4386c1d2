import { defineTool } from '../tools/define-tool.js';
import { collectSecrets } from '../session/redact.js';
import { projectFileWriteRefusal } from './memory-write-refusal.js';
import { appendFact } from './memory-file.js';
import { displayPath, memoryPath } from './memory-paths.js';
import { agentEnvironment } from '../secrets/held-secrets.js';

/**
 * Saves a fact for later sessions. What it saves goes into every later system prompt, so a
 * prompt-injected model could plant lasting instructions: it asks like a file edit does (and
 * runs without asking under auto-edit and yolo). It only ever appends one bullet to our own
 * memory file; `vibe-agent memory forget` undoes it.
 */
export function createRememberTool(env: NodeJS.ProcessEnv = agentEnvironment()) {
  return defineTool({
    name: 'remember',
    description:
      'Save a short durable fact for future sessions (how to run the tests, a user preference). ' +
      'scope "project" (default): this workspace; "user": every project. Never secrets.',
    parameters: (z) => z.object({
      fact: z.string(),
      scope: z.enum(['project', 'user']).default('project'),
    }),
    // Appends to our own memory file only: auto-edit lets it run like a file edit.
    permission: { category: 'edit' },
    async preview({ fact, scope }, { workspace }) {
      return { summary: `${scope} memory: ${fact}`, detail: `appends to ${displayPath(memoryPath(scope, workspace, env), env)}` };
    },
    async execute({ fact, scope }, { workspace }) {
      // Memory files are plain text loaded into every later prompt: keep credentials out of them.
      if (collectSecrets(env).some((secret) => fact.includes(secret))) {
        return { output: 'Not remembered: the fact contains a secret from the environment (an API key or token). Remember where it is kept instead.', isError: true };
      }
      const path = memoryPath(scope, workspace, env);
      const refusal = scope === 'project' ? projectFileWriteRefusal(path, workspace) : undefined;
      if (refusal) return { output: refusal, isError: true };
      const result = appendFact(path, scope, fact);
      if (!result.ok) return { output: result.reason, isError: true };
      const where = displayPath(path, env);
      return result.added ? `Remembered in ${where}: ${result.fact}` : `Already remembered in ${where}: ${result.fact}`;
    },
  });
}

export const rememberTool = createRememberTool();
