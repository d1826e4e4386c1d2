import type { Telemetry, TelemetryOptions } from './start-telemetry.js';

export type { Telemetry, TelemetryOptions } from './start-telemetry.js';

/**
 * OpenTelemetry spans for runs (see startTelemetry), with the OpenTelemetry packages imported on
 * this first call: a library user who never calls it never loads them.
 */
export async function loadTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const { startTelemetry } = await import('./start-telemetry.js');
  return startTelemetry(options);
}
