import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../eval/package-root.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import type { Telemetry } from '../../telemetry/start-telemetry.js';
import { telemetryWanted } from '../../telemetry/telemetry-wanted.js';
import type { Settings } from '../settings/settings.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

/**
 * OpenTelemetry for a run when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set;
 * undefined, with nothing of OpenTelemetry loaded, otherwise.
 */
export async function startTelemetryIfWanted(settings: Settings, options: { conversationId?: string; env?: NodeJS.ProcessEnv }): Promise<Telemetry | undefined> {
  const env = options.env ?? agentEnvironment();
  if (!telemetryWanted(env)) return undefined;
  const { startTelemetry } = await import('../../telemetry/start-telemetry.js');
  return startTelemetry({
    env,
    captureContent: settings.otelCaptureContent,
    redact: createRedactor(collectSecrets(env, [settings.apiKey])),
    temperature: settings.temperature,
    ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    serviceVersion: version(),
  });
}

function version(): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
