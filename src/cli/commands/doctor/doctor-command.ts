import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeEstimate, estimateCost } from '../../../doctor/estimate-cost.js';
import { localChecks, type ConfigFileCheck } from '../../../doctor/local-checks.js';
import { renderLocalOnly, renderReport, reportFailed } from '../../../doctor/render-report.js';
import { runDoctor } from '../../../doctor/run-doctor.js';
import type { DoctorEndpoint } from '../../../doctor/types.js';
import { ConfigError, createProvider } from '../../../providers/create-provider.js';
import { resolveCliProvider } from '../../setup/provider-problem-text.js';
import { detectBubblewrap } from '../../../sandbox/detect-bubblewrap.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig, pointsAtThisMachine, projectConfigPath, readConfigFile, userConfigPath, type ConfigPlace, type FileConfig } from '../../settings/config.js';
import { EXIT } from '../../settings/exit-codes.js';
import { askYesNo, canAskYesNo } from '../../setup/ask-yes-no.js';
import { providerSettings } from '../../setup/provider-settings.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { secondsAsMs } from '../../settings/setting-parsers.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { userFileRoots } from '../../../workspace/own-file-roots.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent doctor`: local checks, then the probe battery against the endpoint a run would use. */
export async function doctorCommand(args: CliArgs, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const timeoutMs = env.VIBE_DOCTOR_TIMEOUT === undefined ? undefined : secondsAsMs(env.VIBE_DOCTOR_TIMEOUT, 'VIBE_DOCTOR_TIMEOUT');
  const configFiles = await Promise.all([checkConfigFile(userConfigPath(env), { within: userFileRoots(env), user: true }), checkConfigFile(projectConfigPath(workspace), { within: [workspace] })]);
  const local = localChecks({ nodeVersion: process.version, platform: process.platform, stdoutIsTTY: process.stdout.isTTY === true, env, configFiles, sandbox: () => detectBubblewrap() });
  // A broken config file is a finding, not a reason to stop: the endpoint is probed from flags and environment.
  let config: FileConfig = {};
  if (!configFiles.some((file) => file.error)) config = await loadConfig(workspace, env, (message) => safeStderr.write(`vibe-agent: warning: ${message}\n`));
  const settings = resolveSettings(args, env, config);
  let resolved: ReturnType<typeof resolveCliProvider>;
  try {
    resolved = resolveCliProvider(providerSettings(settings, env));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Nothing to probe yet, but the machine's checks are what someone setting up needs to see.
    safeStdout.write(args.json ? `${JSON.stringify({ endpoint: null, local, error: error.message }, null, 2)}\n` : renderLocalOnly(local, error.message));
    return EXIT.usage;
  }
  const endpoint: DoctorEndpoint = {
    provider: resolved.preset.name,
    protocol: resolved.preset.protocol ?? 'openai',
    baseURL: resolved.baseURL,
    model: resolved.model,
    apiKey: resolved.apiKey,
    local: resolved.preset.local === true || pointsAtThisMachine(resolved.baseURL),
  };
  if (!endpoint.local && !args.yes) {
    const consent = await askToSpend(describeEstimate(endpoint, estimateCost(endpoint)));
    if (consent !== 'yes') return consent === 'refused' ? EXIT.usage : EXIT.aborted;
  }
  const provider = await createProvider(resolved);
  const progress = !args.json && process.stderr.isTTY === true;
  const report = await runDoctor({
    endpoint,
    provider,
    local,
    signal,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(progress ? { onProbe: (probe) => safeStderr.write(`  ${probe.label}…\n`) } : {}),
  });
  safeStdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report));
  if (signal.aborted) return EXIT.aborted;
  return reportFailed(report) ? EXIT.providerError : EXIT.answered;
}

async function checkConfigFile(path: string, place: ConfigPlace): Promise<ConfigFileCheck> {
  if (!existsSync(path)) return { path, found: false };
  try {
    await readConfigFile(path, place);
    return { path, found: true };
  } catch (error) {
    return { path, found: true, error: (error as Error).message };
  }
}

/** A paid endpoint is only used after a yes: asked on a terminal, refused without one (pass --yes). */
async function askToSpend(estimate: string): Promise<'yes' | 'no' | 'refused'> {
  if (!canAskYesNo()) {
    safeStderr.write(`vibe-agent: ${estimate}\nvibe-agent: not a terminal, so not asking: pass --yes to run doctor against this paid endpoint.\n`);
    return 'refused';
  }
  return (await askYesNo(`${estimate}\nGo ahead?`)) ? 'yes' : 'no';
}
