import { openConversation, type ConversationCore } from '../../../conversation/open-conversation.js';
import type { SessionChoice } from '../../../conversation/session-file.js';
import { findSession, isConversation } from '../../../session/list-sessions.js';
import type { PermissionPolicy } from '../../../permissions/permission-policy.js';
import type { AskApproval } from '../../../tools/approval.js';
import type { CliArgs } from '../../args/cli-args.js';
import { asUsage, chooseSessionPath } from '../../prompt/session-choice.js';
import { UsageError } from '../../settings/usage-error.js';
import { conversationParts } from '../../setup/conversation-parts.js';
import { sessionPolicy } from '../../setup/permission-setup.js';
import type { PreparedRun } from '../../setup/prepare-run.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/**
 * The terminal's conversations, one at a time, all opened by the core: the first (new, or the
 * session --continue / --resume chose), then a fresh one after /clear and another session's after
 * /resume. One permission policy serves them all, so the mode and the session's grants carry over;
 * its questions go to whichever conversation is current.
 */
export class InteractiveConversations {
  readonly permissions: PermissionPolicy;
  /** `!command`s: the same rules, and typing the command was the answer. */
  readonly typedPermissions: PermissionPolicy;
  private ask: AskApproval | undefined;
  private current!: ConversationCore;

  private constructor(
    private readonly prepared: PreparedRun,
    private readonly saving: boolean,
    private readonly warn: (text: string) => void,
  ) {
    this.permissions = sessionPolicy(prepared, { ask: (request, signal) => (this.ask ? this.ask(request, signal) : Promise.resolve('no')) });
    this.typedPermissions = sessionPolicy(prepared, { ask: async () => 'yes' });
  }

  /** Opens the first conversation; a session taken by another run or a bad --resume is a usage error (exit 2). */
  static async open(args: CliArgs, prepared: PreparedRun, warn: (text: string) => void): Promise<InteractiveConversations> {
    const conversations = new InteractiveConversations(prepared, !args.noSession, warn);
    conversations.current = await conversations.openOne(firstChoice(args, prepared.workspace));
    return conversations;
  }

  get conversation(): ConversationCore {
    return this.current;
  }

  /** /clear: this conversation ends (SessionEnd `clear`); the next prompt starts a session of its own. */
  async clear(): Promise<void> {
    await this.current.close('clear');
    this.current = await this.openOne(this.saving ? { kind: 'new', lazy: true, afterClear: true } : { kind: 'none' });
  }

  /** /resume <id>: that session's conversation becomes the current one. */
  async resume(id: string): Promise<ConversationCore> {
    if (!this.saving) throw new Error('sessions are off in this run (--no-session).');
    const found = findSession(this.prepared.workspace, id, agentEnvironment());
    if (!found.ok) throw new Error(found.reason);
    if (!isConversation(found.session)) throw new Error(`${found.session.id} is the rewind point of a land, not a conversation (vibe-agent rewind --resume ${found.session.id} undoes it).`);
    // Its lock is ours: reopening it would report this very process as "another run".
    if (found.session.id === this.current.state().id && this.current.state().path) throw new Error(`this is the session you are in (${found.session.id}).`);
    const next = await this.openOne({ kind: 'resume', path: found.session.path });
    await this.current.close('other');
    this.current = next;
    return next;
  }

  /**
   * /bg: the current conversation is closed (its file fsynced, its lock released) so that another
   * process may be its one writer; its stored file, or undefined when nothing was saved yet.
   */
  async handOver(): Promise<{ id: string; path: string | undefined }> {
    if (!this.saving) throw new Error('sessions are off in this run (--no-session): there is no session file for the server to continue.');
    const { id, path } = this.current.state();
    await this.current.close('other');
    return { id, path };
  }

  /** The move to the background failed: the session is this terminal's again, reopened from its file (or a new one). */
  async takeBack(path: string | undefined): Promise<void> {
    this.current = await this.openOne(path ? { kind: 'resume', path } : { kind: 'new', lazy: true });
  }

  close(): Promise<void> {
    return this.current.close('prompt_input_exit');
  }

  private openOne(session: SessionChoice): Promise<ConversationCore> {
    return openConversation(
      conversationParts(this.prepared, {
        session,
        authorize: (ask) => {
          this.ask = ask;
          return this.permissions;
        },
        asks: true,
        warn: this.warn,
      }),
    ).catch((error: unknown) => {
      throw session.kind === 'resume' ? asUsage(error) : error;
    });
  }
}

/** --no-session, --continue / --resume (the session chosen here), or a new session created at its first event. */
function firstChoice(args: CliArgs, workspace: string): SessionChoice {
  const resuming = args.continue || args.resume !== undefined;
  if (args.noSession) {
    if (resuming) throw new UsageError('--no-session cannot be combined with --continue or --resume.');
    return { kind: 'none' };
  }
  if (args.continue && args.resume !== undefined) throw new UsageError('Give either --continue or --resume, not both.');
  return resuming ? { kind: 'resume', path: chooseSessionPath(args, workspace, agentEnvironment()) } : { kind: 'new', lazy: true };
}
