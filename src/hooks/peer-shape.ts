import { isAbsolute, resolve } from 'node:path';

/** One of our tools as a peer CLI names it: its tool name and, per argument, the peer's field name. */
export interface ToolShape {
  name: string;
  /** Our argument name → the peer's; an argument not listed keeps its name. */
  fields?: Record<string, string>;
  /** Our arguments the peer gives as absolute paths (Claude Code's `file_path` is absolute). */
  absolute?: string[];
}

/** How a peer CLI (Claude Code, Gemini CLI) names our tools and their arguments, both ways. */
export class PeerShape {
  private readonly byPeerName = new Map<string, string>();

  /** `keepsOurName`: our tools the peer has no equal of; they reach its hooks under our names and fields. */
  constructor(
    private readonly tools: Readonly<Record<string, ToolShape>>,
    readonly keepsOurName: readonly string[],
  ) {
    for (const [ours, shape] of Object.entries(tools)) this.byPeerName.set(shape.name, ours);
  }

  /** The peer's name for our tool; a tool it has no equal of (an MCP tool, `remember`) keeps ours. */
  toolName(ours: string): string {
    return this.tools[ours]?.name ?? ours;
  }

  /** Our tool behind a peer's name, or undefined. */
  ourTool(peerName: string): string | undefined {
    return this.byPeerName.get(peerName);
  }

  /** Our arguments as the peer's `tool_input`; paths made absolute against `cwd` where the peer's are. */
  toPeer(ours: string, input: Record<string, unknown>, cwd: string): Record<string, unknown> {
    const shape = this.tools[ours];
    if (!shape) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const absolute = shape.absolute?.includes(key) && typeof value === 'string' && !isAbsolute(value);
      out[shape.fields?.[key] ?? key] = absolute ? resolve(cwd, value) : value;
    }
    return out;
  }

  /** A peer's `tool_input` (a hook's `updatedInput`) as our arguments. */
  fromPeer(ours: string, input: Record<string, unknown>): Record<string, unknown> {
    const fields = this.tools[ours]?.fields ?? {};
    const back = new Map(Object.entries(fields).map(([our, peer]) => [peer, our]));
    return Object.fromEntries(Object.entries(input).map(([key, value]) => [back.get(key) ?? key, value]));
  }

  /** Our tools this peer names (for tests and docs). */
  get mapped(): readonly string[] {
    return Object.keys(this.tools);
  }
}
