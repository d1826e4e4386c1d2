import { createHash } from 'node:crypto';

const MAX = 64;

/** Replaces what some provider rejects; the map in McpServers keeps the way back to the original names. */
export function sanitizeNamePart(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

/**
 * `mcp__<server>__<tool>`, within ^[a-zA-Z0-9_-]{1,64}$ (what every provider accepts). A name
 * that had to be shortened ends in a hash of the original, so two long names stay apart.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (name.length <= MAX) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX - 9)}_${hash}`;
}

/** `mcp__<server>`: what every tool name of the server starts with. */
export function serverPrefix(server: string): string {
  return `mcp__${sanitizeNamePart(server)}`;
}

/**
 * Whether two servers' tools could be named alike, so that neither a tool name nor a rule could
 * tell them apart: the same prefix (`my_srv`, `my.srv`), or one that a tool name could continue
 * into the other (`a` with its tool `b__x` and `a__b` with `x`; `a` with `_x` and `a_` with `x`).
 */
export function serversClash(a: string, b: string): boolean {
  const [first, second] = [serverPrefix(a), serverPrefix(b)];
  const continues = (short: string, long: string) => long === short || long === `${short}_` || long.startsWith(`${short}__`);
  return continues(first, second) || continues(second, first);
}
