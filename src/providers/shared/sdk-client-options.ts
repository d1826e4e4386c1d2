import { boundedFetch } from '../../contracts/bounded-fetch.js';

/** What every provider takes for its SDK client. */
export interface SdkConnection {
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  defaultHeaders?: Record<string, string>;
}

/**
 * The options the OpenAI and Anthropic SDK clients are made with. Retries are ours (visible to the
 * user as events), so the SDK's own are off; the SDK logs a bad frame to the console (over the
 * terminal UI) while our error carries it, so its logging is off unless `logVariable` is set.
 */
export function sdkClientOptions(connection: SdkConnection, logVariable: 'OPENAI_LOG' | 'ANTHROPIC_LOG', peer: string) {
  return {
    // Every body counted as it arrives and event streams decoded in linear time (bounded-fetch.ts).
    fetch: boundedFetch(peer),
    apiKey: connection.apiKey,
    baseURL: connection.baseURL,
    maxRetries: 0,
    timeout: connection.timeoutMs ?? 600_000,
    defaultHeaders: connection.defaultHeaders,
    ...(process.env[logVariable] ? {} : { logLevel: 'off' as const }),
  };
}
