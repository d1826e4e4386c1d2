import type { AskTrust, TrustQuestion } from './trust-question.js';
import type { TrustStore } from './trust-store.js';

export interface TrustRequest {
  /** What is approved, as the store files it: `mcp:<file>#<name>`, `hooks:<file>`. */
  key: string;
  /** The configuration as read: the approval also holds only while it is unchanged. */
  config: unknown;
  question: TrustQuestion;
}

/**
 * The user's answer about one project entry: remembered when they gave it for exactly this
 * question and configuration, else asked (when there is someone to ask) and remembered.
 * Undefined when never answered and no one can be asked.
 */
export async function decideTrust(store: TrustStore, request: TrustRequest, ask: AskTrust | undefined): Promise<boolean | undefined> {
  const known = rememberedTrust(store, request);
  if (known !== undefined || !ask) return known;
  const approved = await ask(request.question);
  rememberTrust(store, request, approved);
  return approved;
}

/** The answer given before for exactly this question and configuration, if any; never asks. */
export function rememberedTrust(store: TrustStore, request: TrustRequest): boolean | undefined {
  return store.decision(request.key, boundTo(request));
}

/** Files the answer for exactly this question and configuration. */
export function rememberTrust(store: TrustStore, request: TrustRequest, approved: boolean): void {
  store.record(request.key, boundTo(request), approved);
}

const boundTo = (request: TrustRequest) => ({ question: request.question, config: request.config });
