import { canonicalJson } from '../contracts/canonical-json.js';
import type { ToolCall } from '../contracts/messages.js';
import { parseArguments } from '../tools/registry.js';

export interface RepeatLimits {
  /** Identical call with an identical result, this many times in a row, stops the run. */
  sameResult: number;
  /** Identical call whose results keep changing (polling), this many times in a row, stops the run. */
  changingResult: number;
}

/**
 * The article's third brake. A call's key is its name plus the canonical JSON of its arguments,
 * so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call.
 */
export class RepeatDetector {
  private key: string | undefined;
  private lastResult: string | undefined;
  private keyStreak = 0;
  private resultStreak = 0;

  constructor(private readonly limits: RepeatLimits) {}

  /** Records one executed call; returns a description when a limit is reached. */
  record(call: ToolCall, result: string): string | undefined {
    const key = callKey(call);
    if (key === this.key) {
      this.keyStreak++;
      this.resultStreak = result === this.lastResult ? this.resultStreak + 1 : 1;
    } else {
      this.key = key;
      this.keyStreak = 1;
      this.resultStreak = 1;
    }
    this.lastResult = result;
    if (this.resultStreak >= this.limits.sameResult) {
      return `${call.name} was called ${this.resultStreak} times in a row with the same arguments and got the same result each time.`;
    }
    if (this.keyStreak >= this.limits.changingResult) {
      return `${call.name} was called ${this.keyStreak} times in a row with the same arguments.`;
    }
    return undefined;
  }
}

export function callKey(call: ToolCall): string {
  const parsed = parseArguments(call.arguments);
  return `${call.name}:${parsed.ok ? canonicalJson(parsed.value) : call.arguments}`;
}
