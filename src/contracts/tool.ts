import type { ImageRef, Message, ToolCall, Usage } from './messages.js';
import type { ModelRequest, ToolSchema } from './provider.js';

export interface ToolContext {
  /** Aborted when the run is aborted or the call times out; tools must stop promptly. */
  signal: AbortSignal;
  /** The workspace root the agent works in. */
  workspace: string;
  /**
   * Puts a further step the tool takes on its own (fetch_url following a redirect), written as the
   * tool's arguments, to the same permission policy as the call itself. Absent when none is in force.
   */
  authorizeFollowUp?(args: unknown): Promise<{ allowed: true } | { allowed: false; reason: string }>;
  /**
   * Puts a separate action the tool takes on its own behalf (an edit running the project's
   * checker), described as another tool's call, to the same permission policy. Absent when none is in force.
   */
  authorizeAction?(action: { tool: Tool; args: unknown; preview: { summary: string; detail?: string } }): Promise<{ allowed: true } | { allowed: false; reason: string }>;
}

/** What `execute` may return: plain text, or text flagged as an error the model should see. */
export type ToolOutput = string | { output: string; isError?: boolean; images?: ImageRef[]; toolReferences?: string[] };

/**
 * What the user sees when asked to approve a call: a one-line summary (the command, the path)
 * and optional detail (the diff of an edit). `error` means the call cannot succeed as given
 * (e.g. the text to replace is absent): the model gets the error and the user is not asked.
 */
export type ToolPreview = { summary: string; detail?: string } | { error: string };

/**
 * What kind of action a call is; the permission modes work by it. read: never asked about (deny
 * rules still apply); edit: changes files, runs without asking under auto-edit; execute and
 * network: asked about unless a rule or an "always" answer allows them.
 */
export type ToolCategory = 'read' | 'edit' | 'execute' | 'network';

/**
 * The part of a call that a rule's pattern is matched against, and how it is matched.
 * file-path: a glob on the path relative to the workspace, as written and where it really leads;
 * shell-command: a wildcard, but an allow rule never covers a chain and a deny rule checks every
 * segment in its usual respellings; web-url: a wildcard, and "always" grants the URL's origin;
 * text: a wildcard, and "always" grants exactly this value; search-query: a wildcard, and "always"
 * grants every call of the tool (a search's text rarely comes again, so an exact grant would never hold).
 */
export interface PermissionSubject {
  kind: 'file-path' | 'shell-command' | 'web-url' | 'text' | 'search-query';
  value: string;
  /**
   * For a file path: the other files the same call writes (a rename across files). Deny rules and
   * protected folders hold if any of them matches; an allow rule or a plan covers the call only if
   * it covers every one.
   */
  also?: readonly string[];
}

/** How a tool is permitted: the permission policy knows tools only through this. */
export interface ToolPermission<Args = unknown> {
  category: ToolCategory;
  /**
   * What `tool(pattern)` rules match, from the validated arguments. Without one, a deny rule
   * with a pattern that names the tool denies every call (it cannot be checked) and an allow
   * rule with a pattern never matches.
   */
  subject?(args: Args): PermissionSubject | undefined;
  /**
   * Other names rules may use for the tool, e.g. "edit" for every file-editing tool. When the
   * category's own name is one of them, an "always" for a path (or no subject) grants the category.
   */
  aliases?: readonly string[];
  /**
   * The names rules use for a tool whose own name had to be changed to be valid (an MCP tool:
   * `mcp__<server>__<tool>` with the server and tool as configured, and `mcp__<server>` for the
   * whole server). When present, an allow rule (and an "always") names the tool only by these,
   * so a rule for the server `my_srv` never covers `my.srv`, whose tools are also named
   * `mcp__my_srv__…`; a deny rule matches these, the tool's own name and its aliases.
   */
  identity?: { name: string; group: string };
}

export type ArgumentCheck = { ok: true; data: unknown } | { ok: false; issues: string };

export interface Tool {
  readonly name: string;
  readonly description: string;
  /**
   * The arguments as the tool takes them (unknown keys dropped, defaults filled), or what is wrong
   * with them, in words for the model. Synchronous when a compiled check answers (the built-in
   * tools' valid calls: no zod), a promise otherwise.
   */
  checkArguments(args: unknown): ArgumentCheck | Promise<ArgumentCheck>;
  /** Derived once (defineTool: when first read, so tools never offered cost nothing). */
  readonly schema: ToolSchema;
  readonly readOnly: boolean;
  /**
   * May run alongside the other calls of a reply that are read-only or concurrent, though it is
   * not read-only itself (a subagent: its own calls are checked one by one). Absent means false.
   */
  readonly concurrent?: boolean;
  readonly needsApproval: boolean;
  readonly permission: ToolPermission;
  readonly timeoutMs: number | undefined;
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
  preview(args: unknown, context: ToolContext): Promise<ToolPreview>;
  /**
   * Present on a tool whose code loads at first use (the CLI's built-in tools: their schemas come
   * from a manifest written at build time, so a run that never calls them never loads them or zod).
   * Until it resolves, `checkArguments` and `permission.subject` throw; the registry awaits it before
   * validating a call, and starts it as soon as a reply names the tool.
   */
  load?(): Promise<Tool>;
  /**
   * Present on a tool tool search may defer (an MCP server's): what its search matches besides
   * the name and description, and whether the server asked for it to be always loaded.
   */
  readonly search?: { server: string; tool: string; title?: string; alwaysLoad?: boolean };
}

export type ToolCallStatus = 'ok' | 'error' | 'denied';

export interface ToolResult {
  content: string;
  isError: boolean;
  status: ToolCallStatus;
  /** The parsed, validated arguments, when they got that far. */
  args?: unknown;
  /** How long `execute` ran, in ms (not the wait for approval); absent when it never ran. */
  durationMs?: number;
  images?: ImageRef[];
  /** Tools a tool search found, referenced for a wire that loads them itself (see ToolMessage). */
  toolReferences?: string[];
  /** How the auto permission mode decided the call, when it did. */
  review?: PermissionReview;
}

/**
 * How the auto permission mode decided a call: by a rule (the user's deny rules), the built-in
 * hard-deny list, the fast path (reads, ordinary edits inside the workspace), the reviewer model,
 * or the person it handed back to. Recorded as a `permission_review` event beside the call.
 */
export interface PermissionReview {
  tier: 'rule' | 'hard_deny' | 'fast_path' | 'reviewer' | 'person';
  verdict: 'allow' | 'deny';
  reason: string;
  /** The reviewer that was asked (tier reviewer, and person when the reviewer refused first). */
  reviewer?: { provider: string; model: string };
  /** sha256 of the reviewer's first request, canonical JSON: the exact input it judged. */
  digest?: string;
  usage?: Usage;
  /** US dollars, when the reviewer's price is known; counted in the run's cost and budget. */
  cost?: number;
  /** The reviewer's requests and replies, as sent and received: what replay sends again. */
  exchanges?: Array<{ request: ModelRequest; digest: string; reply?: string; error?: string }>;
  /** Refusals in a row and in the session, after this call. */
  refusals?: { inARow: number; total: number };
  /** This refusal reached the limit: the call was handed back to the person (headless: the run stops). */
  handedBack?: boolean;
}

export type AuthorizeDecision = ({ allowed: true } | { allowed: false; reason: string }) & { review?: PermissionReview };

/** Asked before a call that needs approval runs. Returning a reason denies the call. */
export type Authorize = ((request: AuthorizeRequest) => Promise<AuthorizeDecision>) & {
  /**
   * Also consult this hook for calls that need no approval (read-only tools, whose
   * `tool.needsApproval` is false), so deny rules such as `fetch_url(http://169.254.*)` hold for
   * them; it must never ask the user about those. Without it, only calls that need approval come.
   */
  checksEveryCall?: boolean;
};

export interface AuthorizeRequest {
  tool: Tool;
  args: unknown;
  call: ToolCall;
  /** What to show the user: the command, the path, the diff. */
  preview: { summary: string; detail?: string };
  /** The workspace the call runs in (rules match paths relative to it). */
  workspace: string;
  signal: AbortSignal;
  /** A PreToolUse hook allowed the call: deny rules and plan mode still hold, but nobody is asked. */
  hookAllowed?: boolean;
  /** A PreToolUse hook answered "ask" (its reason): the user is asked even where a rule, a grant or the mode would allow. */
  hookAsks?: string;
  /** The conversation so far (the loop's history when the call was made): the auto mode's reviewer reads the user's words and the calls from it. */
  history?: readonly Message[];
}
