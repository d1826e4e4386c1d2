import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { createAcpAgent } from '../../../acp/acp-agent.js';
import type { AcpHost } from '../../../acp/acp-host.js';
import { ConfigError } from '../../../providers/create-provider.js';
import { resolveCliProvider } from '../../setup/provider-problem-text.js';
import { PRESET_ALIASES, PRESETS } from '../../../providers/presets.js';
import { packageRoot } from '../../../eval/package-root.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig } from '../../settings/config.js';
import { safeStderr } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { openAcpSession } from './acp-session.js';
import { providerSettings } from '../../setup/provider-settings.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/**
 * `vibe-agent acp`: the Agent Client Protocol over stdio, for editors (Zed, JetBrains) that run
 * the agent as a child process. stdout carries the protocol only; warnings go to stderr.
 */
export async function acpCommand(args: CliArgs, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const host: AcpHost = {
    version: (JSON.parse(readFileSync(`${packageRoot(import.meta.url)}/package.json`, 'utf8')) as { version: string }).version,
    open: (setup) => openAcpSession(args, setup, env),
    credentials: (cwd) => credentials(args, env, resolve(args.cwd ?? cwd)),
  };
  const { app, closeAll } = createAcpAgent(host);
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
  const connection = app.connect(stream);
  // SIGTERM or Ctrl-C from the editor: running prompts are aborted and the sessions closed (their files synced).
  const stop = () => connection.close();
  signal.addEventListener('abort', stop, { once: true });
  await connection.closed;
  signal.removeEventListener('abort', stop);
  await closeAll();
  if (signal.aborted) {
    process.stdin.destroy();
    return EXIT.aborted;
  }
  return EXIT.answered;
}

/** Which variable holds the provider's key, and what is missing for a run to start, if anything. */
async function credentials(args: CliArgs, env: NodeJS.ProcessEnv, workspace: string): Promise<{ variable: string | undefined; problem: string | undefined }> {
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  try {
    const settings = resolveSettings(args, env, await loadConfig(workspace, env, warn));
    const preset = PRESETS[PRESET_ALIASES[settings.values.provider] ?? settings.values.provider];
    const variable = preset?.keyVariable;
    try {
      resolveCliProvider(providerSettings(settings, env));
      return { variable, problem: undefined };
    } catch (error) {
      if (error instanceof ConfigError) return { variable, problem: error.message };
      throw error;
    }
  } catch (error) {
    return { variable: undefined, problem: (error as Error).message };
  }
}
