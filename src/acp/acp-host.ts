import type { AgentEvent } from '../contracts/events.js';
import type { ImageRef, Message } from '../contracts/messages.js';
import type { Tool } from '../contracts/tool.js';
import type { ImageLimits } from '../images/image-limits.js';
import type { ServerEntry } from '../mcp/server-spec.js';
import type { PermissionMode } from '../permissions/permission-modes.js';
import type { AskApproval } from '../tools/approval.js';
import type { FileAccess } from '../tools/coding/shared/file-access.js';
import type { Confine } from './confined-files.js';

/** What the ACP layer asks of the program around it: sessions that run our loop. It holds no loop logic itself. */
export interface AcpHost {
  /** Starts a session (or reopens a stored one, `loadId`); throws CredentialsMissing when no model is configured. */
  open(setup: AcpSessionSetup): Promise<AcpSession>;
  /** The environment variable the provider's key comes from, and why a run could not start now (undefined: it can). */
  credentials(cwd: string): Promise<{ variable: string | undefined; problem: string | undefined }>;
  version: string;
}

export interface AcpSessionSetup {
  cwd: string;
  /** Servers the editor passed: started like the user's own (trusted: the user's editor chose them). */
  mcpServers: ServerEntry[];
  /** Present when the client reads and writes files for us (its buffers, unsaved edits included). */
  files?: FileAccess;
  /** Asks the user in the editor; the same permission policy as the terminal decides when. */
  ask: AskApproval;
  /** A stored session's id to continue. */
  loadId?: string;
}

export interface AcpSession {
  id: string;
  workspace: string;
  /** The conversation so far (empty for a new session): what session/load replays. */
  history(): readonly Message[];
  /** The session's tool of that name, for the kind of its calls. */
  tool(name: string): Tool | undefined;
  /** Where the session's tools may read and write: every file request of the ACP layer is checked by it first. */
  confine: Confine;
  /** Whether the session's model takes images (`refused` says why not) and the provider's limits for them. */
  images: { refused: string | undefined; limits: ImageLimits };
  /** The session's permission mode: its conversation's. */
  readonly mode: PermissionMode;
  /** Sets the conversation's mode (as Shift+Tab in a terminal): the running prompt's next call is checked in it. */
  setMode(mode: PermissionMode): void;
  /** Told of every change of the conversation's mode, whoever made it (this editor's `setMode` included); returns the unsubscribe. */
  onModeChange(listener: (mode: PermissionMode) => void): () => void;
  /** One prompt (with the images on its user message): the loop's events, in order, ending with `stop`. */
  prompt(input: string, signal: AbortSignal, images?: ImageRef[]): AsyncIterable<AgentEvent>;
  close(): Promise<void>;
}

/** No provider key or endpoint is configured: the client should authenticate (set the variable) first. */
export class CredentialsMissing extends Error {
  override name = 'CredentialsMissing';
}
