import type { Provider } from '../contracts/provider.js';
import type { ToolStreamShape } from './analyse-tool-stream.js';
import { probeAdapter } from './probe-adapter.js';
import { probeContext } from './probe-context.js';
import { probeParameters } from './probe-parameters.js';
import { probeLatency, probeReach } from './probe-reach.js';
import { probeReasoning } from './probe-reasoning.js';
import { probeParallel, probeTools } from './probe-tools.js';
import { recommend } from './recommend.js';
import { probeToolSearch } from './probe-tool-search.js';
import type { DoctorEndpoint, DoctorReport, ProbeBounds, ProbeResult } from './types.js';

export interface DoctorOptions {
  endpoint: DoctorEndpoint;
  /** The adapter a run would use, built from the same settings. */
  provider: Provider;
  local: ProbeResult[];
  signal?: AbortSignal;
  /** How long each request may take, sending to last byte (default DEFAULT_PROBE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Called as each probe finishes, for progress on a terminal. */
  onProbe?: (probe: ProbeResult) => void;
}

/** Long enough for a local model to read the context probe's largest prompt on a CPU. */
export const DEFAULT_PROBE_TIMEOUT_MS = 300_000;

/**
 * The battery, one probe after another (a local server runs one request at a time anyway).
 * Raw-wire probes are for OpenAI-compatible endpoints; every protocol gets the adapter probe.
 * Every request has a time limit; after Ctrl-C the report holds the probes that finished.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { endpoint, signal } = options;
  const bounds: ProbeBounds = { signal, timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS };
  const probes: ProbeResult[] = [];
  const add = (probe: ProbeResult) => {
    probes.push(probe);
    options.onProbe?.(probe);
    return probe;
  };
  const steps: Array<() => Promise<unknown>> = [];
  if (endpoint.protocol === 'openai') {
    let shape: ToolStreamShape | undefined;
    steps.push(
      async () => add(await probeReach(endpoint, bounds)),
      async () => {
        const tools = await probeTools(endpoint, bounds);
        tools.results.forEach(add);
        shape = tools.shape;
      },
      async () => add(await probeParallel(endpoint, bounds)),
      async () => add(await probeReasoning(endpoint, shape, bounds)),
      async () => add(await probeParameters(endpoint, bounds)),
      async () => add(await probeContext(endpoint, bounds)),
      async () => add(await probeLatency(endpoint, bounds)),
    );
  } else {
    add({ id: 'wire', label: 'wire probes', status: 'skip', detail: `the raw-wire probes speak Chat Completions; ${endpoint.protocol} is checked through its adapter only` });
  }
  if (endpoint.protocol === 'anthropic') steps.push(async () => add(await probeToolSearch(options.provider, endpoint.model, bounds)));
  steps.push(async () => add(await probeAdapter(options.provider, endpoint.model, bounds)));
  for (const step of steps) {
    if (signal?.aborted) break;
    await step();
    if (probes[0]?.id === 'reach' && probes[0].status === 'fail') break;
  }
  if (signal?.aborted) add({ id: 'cancelled', label: 'cancelled', status: 'skip', detail: 'stopped (Ctrl-C); the probes above are those that finished' });
  return report(options, probes);
}

function report(options: DoctorOptions, probes: ProbeResult[]): DoctorReport {
  const { apiKey: _key, ...endpoint } = options.endpoint;
  return { endpoint, local: options.local, probes, recommendation: recommend(options.endpoint, probes) };
}
