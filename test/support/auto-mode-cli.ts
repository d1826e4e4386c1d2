import { afterEach } from 'vitest';
import { startChatServer, type ServerStep } from './chat-server.js';
import { cliHome, type CliHome } from './cli-process.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/** A reviewer's JSON verdict as its wire reply. */
export const verdict = (outcome: 'allow' | 'deny', rationale = outcome === 'allow' ? 'ordinary work the user asked for' : 'the user did not ask for this') => ({
  text: JSON.stringify({ outcome, risk_level: outcome === 'allow' ? 'low' : 'high', user_authorization: outcome === 'allow' ? 'explicit' : 'none', rationale }),
  usage: { inputTokens: 300, outputTokens: 30 },
});

/**
 * The built CLI in auto mode against two scripted chat servers: the agent's (provider openai) and
 * the reviewer's (provider ollama, another preset reached over its own base URL), each speaking the
 * OpenAI wire through the real SDK. The reviewer server checks no echo: its requests stand alone.
 */
export function useAutoModeCli() {
  const closers: Array<{ close(): Promise<void> }> = [];
  const homes: CliHome[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((closer) => closer.close()));
    for (const home of homes.splice(0)) home.cleanup();
  });
  return async (agentScript: ServerStep[], reviewerScript: ServerStep[], options: { otlp?: boolean } = {}) => {
    const agent = await startChatServer(agentScript);
    const reviewer = await startChatServer(reviewerScript, { checkEcho: false });
    closers.push(agent, reviewer);
    let otlp: OtlpReceiver | undefined;
    if (options.otlp) {
      otlp = await startOtlpReceiver();
      closers.push(otlp);
    }
    const home = cliHome();
    homes.push(home);
    const env = {
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: agent.url,
      VIBE_MODEL: 'agent-model',
      OLLAMA_BASE_URL: reviewer.url,
      ...(otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url } : {}),
    };
    const run = (args: string[], extraEnv: Record<string, string> = {}) =>
      home.run(['--permission-mode', 'auto', '--reviewer', 'ollama/reviewer-model', '--sandbox', 'off', ...args], { ...env, ...extraEnv });
    return { agent, reviewer, otlp, home, env, run };
  };
}
