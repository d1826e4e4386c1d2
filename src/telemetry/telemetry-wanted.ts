/**
 * Whether spans are to be exported: an OTLP endpoint is configured and the SDK is not disabled.
 * Only this file is loaded when they are not; the OpenTelemetry packages stay unloaded.
 */
export function telemetryWanted(env: NodeJS.ProcessEnv): boolean {
  if (/^true$/i.test(env.OTEL_SDK_DISABLED?.trim() ?? '')) return false;
  if (/^none$/i.test(env.OTEL_TRACES_EXPORTER?.trim() ?? '')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}
