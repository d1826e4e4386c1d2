import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type McpServer, type SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../contracts/events.js';
import { errorText } from '../contracts/error-text.js';
import { diskFileAccess, type FileAccess } from '../tools/coding/shared/file-access.js';
import { MAX_TEXT_FILE_BYTES } from '../tools/coding/shared/text-file.js';
import { CredentialsMissing, type AcpHost, type AcpSession } from './acp-host.js';
import { editorFileAccess } from './client-files.js';
import { confinedFileAccess, type Confine } from './confined-files.js';
import { clientMcpServers } from './client-mcp-servers.js';
import { EventUpdates } from './event-updates.js';
import { editorApproval } from './permission-question.js';
import { promptImages } from './prompt-images.js';
import { promptText } from './prompt-text.js';
import { replayEvents } from './replay-history.js';
import { permissionModeOf, sessionModes } from './session-modes.js';
import { acpStopReason } from './stop-reason.js';

export const AUTH_METHOD_ID = 'environment-key';

interface Live {
  session: AcpSession;
  files: FileAccess;
  /** The prompt running now, to abort on session/cancel. */
  running?: AbortController;
  /** A `session/set_mode` is being applied: the editor knows that mode already. */
  settingMode?: boolean;
}

/**
 * Vibe Agent as an ACP agent (protocol version 1, what Zed and JetBrains speak). Each handler
 * translates: sessions and prompts are the host's (our loop, our permission policy, our session
 * store); this layer maps their events to `session/update`s and their questions to the editor's.
 */
export function createAcpAgent(host: AcpHost): { app: AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, Live>();
  let client: AgentContext | undefined;
  let capabilities: ClientCapabilities = {};
  let clientName = 'editor';

  const open = async (cwd: string, mcpServers: McpServer[], loadId?: string): Promise<Live> => {
    if (!client) throw RequestError.internalError(undefined, 'no connection');
    let id = loadId ?? '';
    let confine: Confine = async () => ({ ok: false, reason: 'the session is not open yet' });
    const through = fileAccess(client, capabilities, () => id);
    const files = confinedFileAccess(through, (path, forWrite) => confine(path, forWrite));
    try {
      const session = await host.open({ cwd, mcpServers: clientMcpServers(mcpServers, clientName), ...(through !== diskFileAccess ? { files } : {}), ask: editorApproval(client, () => id), ...(loadId !== undefined ? { loadId } : {}) });
      id = session.id;
      confine = session.confine;
      const live: Live = { session, files };
      sessions.set(id, live);
      // A mode the editor did not set (another front end's, a plan approved elsewhere) is shown in its picker.
      session.onModeChange((mode) => {
        // A closed connection drops it, as it drops every update.
        if (!live.settingMode) send(session.id, { sessionUpdate: 'current_mode_update', currentModeId: mode }).catch(() => undefined);
      });
      return live;
    } catch (error) {
      if (error instanceof CredentialsMissing) throw RequestError.authRequired(undefined, error.message);
      if (error instanceof RequestError) throw error;
      throw RequestError.internalError(undefined, errorText(error));
    }
  };

  const send = (sessionId: string, update: SessionUpdate) => client!.notify('session/update', { sessionId, update });

  const app = agent({ name: 'vibe-agent' })
    .onConnect((connection) => {
      client = connection.client;
    })
    .onRequest('initialize', async ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      clientName = params.clientInfo?.name ?? 'editor';
      const { variable } = await host.credentials(process.cwd());
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: [
          {
            id: AUTH_METHOD_ID,
            name: 'API key from the environment',
            description: `Vibe Agent reads the provider's key from ${variable ?? 'the provider\'s variable'} (or a config file's apiKey); set it in the environment the editor starts the agent with.`,
          },
        ],
        agentInfo: { name: 'vibe-agent', title: 'Vibe Agent', version: host.version },
      };
    })
    .onRequest('authenticate', async ({ params }) => {
      if (params.methodId !== AUTH_METHOD_ID) throw RequestError.invalidParams(undefined, `unknown auth method "${params.methodId}"; this agent offers "${AUTH_METHOD_ID}"`);
      const { problem } = await host.credentials(process.cwd());
      if (problem) throw RequestError.authRequired(undefined, problem);
      return {};
    })
    .onRequest('session/new', async ({ params }) => {
      const { session } = await open(params.cwd, params.mcpServers);
      return { sessionId: session.id, modes: sessionModes(session.mode) };
    })
    .onRequest('session/load', async ({ params }) => {
      const earlier = sessions.get(params.sessionId);
      if (earlier) {
        earlier.running?.abort();
        sessions.delete(params.sessionId);
        await earlier.session.close();
      }
      const { session } = await open(params.cwd, params.mcpServers, params.sessionId);
      // A replay shows what happened; it reads no file now (their content has moved on since).
      const updates = new EventUpdates({ workspace: session.workspace, tool: (name) => session.tool(name), readText: async () => undefined });
      for (const item of replayEvents(session.history())) {
        if ('user' in item) await send(session.id, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: item.user } });
        else for (const update of await updates.updates(item)) await send(session.id, update);
      }
      return { modes: sessionModes(session.mode) };
    })
    .onRequest('session/set_mode', ({ params }) => {
      const live = sessions.get(params.sessionId);
      if (!live) throw RequestError.sessionNotFound(params.sessionId);
      const mode = permissionModeOf(params.modeId);
      if (!mode) throw RequestError.invalidParams(undefined, `unknown mode "${params.modeId}"; this agent's modes are ${sessionModes(live.session.mode).availableModes.map((m) => m.id).join(', ')}`);
      live.settingMode = true;
      try {
        live.session.setMode(mode);
      } finally {
        live.settingMode = false;
      }
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const live = sessions.get(params.sessionId);
      if (!live) throw RequestError.sessionNotFound(params.sessionId);
      const attached = await promptImages(params.prompt, live.session.images.refused, live.session.images.limits);
      if (!attached.ok) throw RequestError.invalidParams(undefined, attached.reason);
      if (live.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running in this session; cancel it first');
      const controller = new AbortController();
      live.running = controller;
      const { session, files } = live;
      const readText = async (absolute: string) => Buffer.from(await files.read(absolute, MAX_TEXT_FILE_BYTES)).toString('utf8');
      const updates = new EventUpdates({ workspace: session.workspace, tool: (name) => session.tool(name), readText });
      let stop: Extract<AgentEvent, { type: 'stop' }> | undefined;
      try {
        for await (const event of session.prompt(promptText(params.prompt), controller.signal, attached.images)) {
          for (const update of await updates.updates(event)) await send(session.id, update);
          if (event.type === 'stop') stop = event;
        }
      } catch (error) {
        if (!controller.signal.aborted) throw RequestError.internalError(undefined, errorText(error));
      } finally {
        live.running = undefined;
      }
      // After a cancel the answer is `cancelled`, whatever the abort made of the request on its way out.
      if (controller.signal.aborted || !stop) return { stopReason: 'cancelled' as const };
      if (stop.reason === 'provider_error') throw RequestError.internalError({ reason: stop.reason }, stop.error ?? 'the model provider failed');
      return { stopReason: acpStopReason(stop.reason) };
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });

  return {
    app,
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      for (const live of all) live.running?.abort();
      await Promise.all(all.map((live) => live.session.close().catch(() => undefined)));
    },
  };
}

/** Reads and writes through the editor for whichever of the two it offers; the disk for the other. */
function fileAccess(client: AgentContext, capabilities: ClientCapabilities, sessionId: () => string): FileAccess {
  const { readTextFile = false, writeTextFile = false } = capabilities.fs ?? {};
  if (!readTextFile && !writeTextFile) return diskFileAccess;
  const editor = editorFileAccess(client, sessionId);
  return { read: readTextFile ? editor.read : diskFileAccess.read, write: writeTextFile ? editor.write : diskFileAccess.write };
}
