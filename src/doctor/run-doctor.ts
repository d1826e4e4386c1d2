import type { Provider } from '../contracts/provider.js';
import { probeAdapter } from './probe-adapter.js';
import { probeContext } from './probe-context.js';
import { probeParameters } from './probe-parameters.js';
import { probeLatency, probeReach } from './probe-reach.js';
import { probeReasoning } from './probe-reasoning.js';
import { probeParallel, probeTools } from './probe-tools.js';
import { recommend } from './recommend.js';
import type { DoctorEndpoint, DoctorReport, ProbeResult } from './types.js';

export interface DoctorOptions {
  endpoint: DoctorEndpoint;
  /** The adapter a run would use, built from the same settings. */
  provider: Provider;
  local: ProbeResult[];
  signal?: AbortSignal;
  /** Called as each probe finishes, for progress on a terminal. */
  onProbe?: (probe: ProbeResult) => void;
}

/**
 * The battery, one probe after another (a local server runs one request at a time anyway).
 * Raw-wire probes are for OpenAI-compatible endpoints; every protocol gets the adapter probe.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { endpoint, signal } = options;
  const probes: ProbeResult[] = [];
  const add = (probe: ProbeResult) => {
    probes.push(probe);
    options.onProbe?.(probe);
    return probe;
  };
  if (endpoint.protocol === 'openai') {
    const reach = add(await probeReach(endpoint, signal));
    if (reach.status === 'fail') return report(options, probes);
    const tools = await probeTools(endpoint, signal);
    tools.results.forEach(add);
    add(await probeParallel(endpoint, signal));
    add(await probeReasoning(endpoint, tools.shape, signal));
    add(await probeParameters(endpoint, signal));
    add(await probeContext(endpoint, signal));
    add(await probeLatency(endpoint, signal));
  } else {
    add({ id: 'wire', label: 'wire probes', status: 'skip', detail: `the raw-wire probes speak Chat Completions; ${endpoint.protocol} is checked through its adapter only` });
  }
  add(await probeAdapter(options.provider, endpoint.model, signal));
  return report(options, probes);
}

function report(options: DoctorOptions, probes: ProbeResult[]): DoctorReport {
  const { apiKey: _key, ...endpoint } = options.endpoint;
  return { endpoint, local: options.local, probes, recommendation: recommend(options.endpoint, probes) };
}
