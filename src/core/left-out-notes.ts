import type { AgentEvent } from '../contracts/events.js';
import type { LeftOut, ReplyOrigin } from '../contracts/provider.js';

/**
 * Turns what providers report they left out of a request into one `context_warning`. The same
 * history goes out every round, so a note is given once per run; passed to each run of a
 * conversation, once per conversation, until something else is left out (another switch of
 * provider, model or wire).
 */
export class LeftOutNotes {
  private readonly given = new Set<string>();

  note(leftOut: readonly LeftOut[] | undefined, turn: number): AgentEvent | undefined {
    const fresh = (leftOut ?? []).filter((item) => !this.given.has(keyOf(item)));
    if (!fresh.length) return undefined;
    for (const item of fresh) this.given.add(keyOf(item));
    return { type: 'context_warning', turn, message: leftOutMessage(fresh), leftOut: fresh };
  }
}

/** e.g. "reasoning from 3 earlier turns was made by openai/o4-mini (responses) and cannot be sent to anthropic/claude-sonnet-4; it is left out (…)". */
export function leftOutMessage(leftOut: readonly LeftOut[]): string {
  const byRoute = new Map<string, LeftOut[]>();
  for (const item of leftOut) {
    const route = `${originText(item.from)}\u0000${originText(item.to)}`;
    byRoute.set(route, [...(byRoute.get(route) ?? []), item]);
  }
  const sentences = [...byRoute.values()].map((items) => {
    const what = items.map((item) => `${PART_NAMES[item.part]} from ${item.turns} earlier turn${item.turns === 1 ? '' : 's'}`).join(' and ');
    const one = items.length === 1 && items[0]!.part === 'reasoning';
    return `${what} ${one ? 'was' : 'were'} made by ${originText(items[0]!.from)} and cannot be sent to ${originText(items[0]!.to)}; ${one ? 'it is' : 'they are'} left out`;
  });
  return `${sentences.join('; ')} (the text, calls and results carry over).`;
}

const PART_NAMES: Record<LeftOut['part'], string> = { reasoning: 'reasoning', web_search: 'web searches' };

function originText(origin: ReplyOrigin): string {
  return `${origin.provider}/${origin.model}${origin.wire ? ` (${origin.wire})` : ''}`;
}

function keyOf(item: LeftOut): string {
  return JSON.stringify([item.part, item.from.provider, item.from.model, item.from.wire, item.to.provider, item.to.model, item.to.wire]);
}
