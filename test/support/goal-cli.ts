import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startChatServer, type ServerStep } from './chat-server.js';
import { cliHome, type CliHome } from './cli-process.js';

/** The judge asks for read-only checks before answering. */
export const askChecks = (...names: string[]) => ({ text: JSON.stringify({ checks: names }), usage: { inputTokens: 200, outputTokens: 10 } });

/** The judge's verdict, citing whatever evidence it is given (checked against the checks it ran). */
export const judged = (status: 'met' | 'not_met', reason: string, evidence: unknown[] = []) => ({
  text: JSON.stringify({ status, reason, evidence }),
  usage: { inputTokens: 300, outputTokens: 30 },
});

/** A tiny npm project whose `npm test` passes once done.txt holds "done". */
export function writeGoalFixture(workspace: string): void {
  writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'goal-fixture', private: true, scripts: { test: 'node check.js' } }));
  writeFileSync(join(workspace, 'check.js'), "const fs = require('node:fs');\nconst ok = fs.existsSync('done.txt') && fs.readFileSync('done.txt', 'utf8').trim() === 'done';\nconsole.log(ok ? 'all 1 tests passed' : 'FAIL: done.txt is not done');\nprocess.exit(ok ? 0 : 1);\n");
}

/**
 * The built CLI with a goal against two scripted chat servers over the real OpenAI SDK: the agent's
 * (provider openai) and the judge's (provider ollama, its own base URL). The workspace is a tiny
 * npm project whose `npm test` passes once done.txt holds "done".
 */
export function useGoalCli() {
  const closers: Array<{ close(): Promise<void> }> = [];
  const homes: CliHome[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((closer) => closer.close()));
    for (const home of homes.splice(0)) home.cleanup();
  });
  return async (agentScript: ServerStep[], judgeScript: ServerStep[], options: { prices?: boolean; asks?: boolean } = {}) => {
    const agent = await startChatServer(agentScript);
    const judge = await startChatServer(judgeScript, { checkEcho: false });
    closers.push(agent, judge);
    const home = cliHome();
    homes.push(home);
    writeGoalFixture(home.workspace);
    if (options.prices) {
      mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
      writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ modelPrices: { 'agent-model': { input: 1, output: 2 }, 'judge-model': { input: 1, output: 2 } } }));
    }
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'agent-model', OLLAMA_BASE_URL: judge.url };
    const run = (args: string[], onSpawn?: Parameters<CliHome['run']>[2]) => home.run([...(options.asks ? [] : ['--yes']), '--sandbox', 'off', '--goal-judge', 'ollama/judge-model', ...args], env, onSpawn);
    return { agent, judge, home, run };
  };
}
