/** pass: works as a run needs it; warn: works with a workaround (ours or a setting); fail: broken; skip: not probed. */
export type ProbeStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One line of the doctor's table; `data` carries what the recommendation and `--json` need. */
export interface ProbeResult {
  id: string;
  label: string;
  status: ProbeStatus;
  detail: string;
  data?: Record<string, unknown>;
}

/** The endpoint under test, as a run would reach it. */
export interface DoctorEndpoint {
  provider: string;
  protocol: 'openai' | 'anthropic' | 'google';
  baseURL: string;
  model: string;
  apiKey: string;
  local: boolean;
}

export interface Recommendation {
  protocol: 'native' | 'prompt-json';
  preset: string;
  contextWindow?: number;
  /** What to put in .vibe-agent/config.json (or the user config). */
  config: Record<string, unknown>;
  notes: string[];
}

export interface DoctorReport {
  endpoint: Omit<DoctorEndpoint, 'apiKey'>;
  local: ProbeResult[];
  probes: ProbeResult[];
  recommendation: Recommendation;
}

/** What bounds each request of the battery: Ctrl-C, and a time limit on the whole of every reply. */
export interface ProbeBounds {
  signal?: AbortSignal | undefined;
  timeoutMs: number;
}
