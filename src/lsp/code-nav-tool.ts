import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Zod } from '../tools/zod-loader.js';
import type { CallHierarchyItem, Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { Tool, ToolContext, ToolOutput } from '../contracts/tool.js';
import { defineTool } from '../tools/define-tool.js';
import { diskFileAccess, mtimeAfterWrite } from '../tools/coding/shared/file-access.js';
import type { FileToolOptions } from '../tools/coding/shared/file-tool-options.js';
import { FileReadTracker } from '../tools/coding/shared/read-tracker.js';
import { resolveToolPath } from '../tools/coding/shared/tool-path.js';
import { unifiedDiff } from '../tools/coding/shared/unified-diff.js';
import { firstFileWith, type FoundServer } from './find-servers.js';
import { formatHover, formatIncoming, formatLocations, formatOutgoing, formatOutline, formatWorkspaceSymbols, LineReader } from './format-results.js';
import type { LspClient } from './lsp-client.js';
import type { LspServers } from './lsp-servers.js';
import { renameAction } from './rename-action.js';
import { installHint } from './server-catalog.js';
import { COMMONJS_EXTENSIONS, followCommonJs, MAX_FOLLOWED_REQUESTS } from './commonjs-references.js';
import { mentioningFiles, widenInferredProject } from './inferred-project.js';
import { locateInCode } from './symbol-in-code.js';
import type { Place } from './symbol-position.js';
import { planWorkspaceEdit, writeAllOrNone } from './workspace-edit.js';

const OPERATIONS = ['definition', 'references', 'hover', 'symbols', 'implementations', 'incoming_calls', 'outgoing_calls', 'rename'] as const;

const parameters = (z: Zod) =>
  z.object({
    operation: z.enum(OPERATIONS),
    path: z.string().min(1).optional(),
    symbol: z.string().min(1).optional(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
    query: z.string().min(1).optional(),
    new_name: z.string().min(1).optional(),
  });

type Args = z.infer<ReturnType<typeof parameters>>;

export interface CodeNavOptions {
  servers: LspServers;
  /** The file tools' options: the same roots, secrets rule and file access. */
  files?: FileToolOptions;
  /** The file tools' tracker, so a rename follows their stale-read rule. */
  tracker?: FileReadTracker;
}

/**
 * code_nav: the project's language servers, asked about a symbol named by the model (a name in a
 * file, a line to pick among occurrences). Reading operations are read-only; a rename is put to
 * the permission policy as an edit of the files it touches, shown as one diff, and lands whole or not at all.
 */
export function createCodeNavTool(options: CodeNavOptions): Tool {
  const tracker = options.tracker ?? new FileReadTracker();
  const files = options.files ?? {};
  const access = files.files ?? diskFileAccess;
  return defineTool({
    name: 'code_nav',
    description:
      "Ask the project's language server. definition, references, hover (type, docs), implementations, incoming_calls, outgoing_calls: give path and symbol (a name in that file; line picks an occurrence). symbols: path for a file's outline, or query to search the workspace. rename: path, symbol, new_name; edits every file or none. Places come as path:line:col: text.",
    parameters,
    readOnly: true,
    permission: { category: 'read', subject: (args: Args) => (args.path ? { kind: 'file-path', value: args.path } : undefined) },
    async execute(args, context): Promise<ToolOutput> {
      try {
        // The registry caps the result like every tool's (the whole kept for read_output).
        return await run(args, context);
      } catch (error) {
        return { output: `code_nav ${args.operation} failed: ${(error as Error).message}. The language server could not answer; grep and read_file still work.`, isError: true };
      }
    },
  });

  async function run(args: Args, context: ToolContext): Promise<string> {
    const reader = new LineReader(context.workspace);
    if (args.operation === 'symbols' && !args.path) {
      if (!args.query) throw new Error('symbols needs path (a file’s outline) or query (a workspace-wide search)');
      return workspaceSymbols(args.query, reader, context);
    }
    if (!args.path) throw new Error(`${args.operation} needs path (the file) and symbol (a name in it)`);
    const resolved = await resolveToolPath(args.path, context, files, false);
    if (!resolved.ok) throw new Error(resolved.reason);
    const absolute = resolved.absolute;
    const server = options.servers.serverFor(absolute);
    if (!server) {
      const hint = installHint(extname(absolute));
      const found = options.servers.found.map((one) => `${one.spec.name} (${one.spec.extensions.join(' ')})`).join(', ') || 'none';
      throw new Error(`no language server answers for ${resolved.relative}; found: ${found}${hint ? `. If it is not installed, ${hint} (\`vibe-agent lsp\` says why a server is not used)` : ''}`);
    }
    const extensions = server.spec.extensions;
    const uri = pathToFileURL(absolute).href;
    const document = { textDocument: { uri } };
    if (args.operation === 'symbols') {
      return options.servers.ask(server, [absolute], context.signal, async (client) => formatOutline(reader, absolute, await client.request('textDocument/documentSymbol', document, context.signal)));
    }
    const text = await readFile(absolute, 'utf8');
    const shown = resolved.relative;
    /** The place meant, found as the server sees the file; an inferred project widened to the files that mention the name. */
    const locate = async (client: LspClient): Promise<{ at: { textDocument: { uri: string }; position: Place }; name: string; word: string | undefined; note: string }> => {
      const located = await locateInCode(client, uri, text, args, context.signal);
      if (!located.ok) throw new Error(`${shown}: ${located.error}`);
      const project = await widenInferredProject(client, { workspace: context.workspace, absolute, shown, name: located.name, extensions: server.spec.extensions, signal: context.signal });
      const name = args.symbol ?? `${shown}:${located.place.line + 1}:${located.place.character + 1}`;
      return { at: { ...document, position: located.place }, name, word: located.name, note: project + (located.note ? `(${located.note}.)\n` : '') };
    };
    if (args.operation === 'rename') return rename(server, absolute, locate, args, context);
    return options.servers.ask(server, [absolute], context.signal, async (client) => {
      const { at, name, word, note } = await locate(client);
      return note + (await answer(client, at, name, word));
    });

    async function answer(client: LspClient, at: { textDocument: { uri: string }; position: Place }, name: string, word: string | undefined): Promise<string> {
      switch (args.operation) {
        case 'definition':
          return formatLocations(reader, await client.request('textDocument/definition', at, context.signal), `definition(s) of ${name}`);
        case 'implementations':
          return formatLocations(reader, await client.request('textDocument/implementation', at, context.signal), `implementation(s) of ${name}`);
        case 'references': {
          const found = (await client.request<Location[] | null>('textDocument/references', { ...at, context: { includeDeclaration: true } }, context.signal)) ?? [];
          const { places, note } = await withCommonJs(client, at, found, word, absolute, extensions, context);
          return note + (await formatLocations(reader, places, `reference(s) to ${name} (the declaration included)`));
        }
        case 'hover':
          return formatHover(await client.request('textDocument/hover', at, context.signal));
        default: {
          const item = await callItem(client, at, context);
          if (!item) return `${name} is not something that calls or is called (no call hierarchy here).`;
          if (args.operation === 'incoming_calls') return formatIncoming(reader, await client.request('callHierarchy/incomingCalls', { item }, context.signal), item.name);
          return formatOutgoing(reader, item.uri, await client.request('callHierarchy/outgoingCalls', { item }, context.signal), item.name);
        }
      }
    }
  }

  /** In a JavaScript file, the server's references with the CommonJS requires it does not follow (see followCommonJs). */
  async function withCommonJs(client: LspClient, at: { textDocument: { uri: string }; position: Place }, found: Location[], word: string | undefined, absolute: string, extensions: readonly string[], context: ToolContext): Promise<{ places: Location[]; note: string }> {
    if (!word || !COMMONJS_EXTENSIONS.includes(extname(absolute).toLowerCase())) return { places: found, note: '' };
    const { files } = await mentioningFiles(client, { workspace: context.workspace, name: word, extensions, signal: context.signal });
    const followed = await followCommonJs(client, { name: word, origin: { uri: at.textDocument.uri, place: at.position }, found, files, signal: context.signal });
    const capped = followed.capped ? `; it was asked ${MAX_FOLLOWED_REQUESTS} questions, the limit, so more may be missing` : '';
    if (!followed.added && !capped) return { places: found, note: '' };
    const why = `The server does not follow CommonJS exports to their require() calls: ${followed.added} of these places ${followed.added === 1 ? 'was' : 'were'} added by asking it where each "${word}" in the ${files.length} file${files.length === 1 ? '' : 's'} that mention it is defined`;
    return { places: followed.locations, note: `(${why}${capped}.)\n` };
  }

  async function callItem(client: LspClient, at: { textDocument: { uri: string }; position: Place }, context: ToolContext): Promise<CallHierarchyItem | undefined> {
    const items = await client.request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', at, context.signal);
    return items?.[0];
  }

  async function workspaceSymbols(query: string, reader: LineReader, context: ToolContext): Promise<string> {
    const answers: string[] = [];
    for (const server of options.servers.found) {
      // A server knows the project from a file it was shown (TypeScript's does); one is opened if none was.
      const any = firstFileWith(context.workspace, server.spec.extensions);
      if (!any) continue;
      const lower = query.toLowerCase();
      answers.push(
        await options.servers.ask(server, [any], context.signal, async (client) => {
          const project = await widenInferredProject(client, { workspace: context.workspace, absolute: any, shown: reader.shown(any), name: query, mentions: (text) => text.toLowerCase().includes(lower), extensions: server.spec.extensions, signal: context.signal });
          return project + (await formatWorkspaceSymbols(reader, await client.request('workspace/symbol', { query }, context.signal), query));
        }),
      );
    }
    return answers.join('\n\n') || 'No language server has files of its kind in this workspace.';
  }

  async function rename(server: FoundServer, absolute: string, locate: (client: LspClient) => Promise<{ at: { textDocument: { uri: string }; position: Place }; note: string }>, args: Args, context: ToolContext): Promise<string> {
    const newName = args.new_name;
    if (!newName) throw new Error('rename needs new_name');
    const { edit, note } = await options.servers.ask(server, [absolute], context.signal, async (client) => {
      const { at, note } = await locate(client);
      return { edit: await client.request<WorkspaceEdit | null>('textDocument/rename', { ...at, newName }, context.signal), note };
    });
    return note + (await applyRename(edit, args, newName, context));
  }

  async function applyRename(edit: WorkspaceEdit | null, args: Args, newName: string, context: ToolContext): Promise<string> {
    const plan = await planWorkspaceEdit(edit, { workspace: context.workspace, extraRoots: files.extraRoots ?? [], allowSecrets: files.allowSecrets ?? false, access, tracker });
    if (!plan.ok) throw new Error(plan.error);
    const diff = plan.files.map((file) => unifiedDiff(file.shown, file.before, file.after)).join('');
    const summary = `rename ${args.symbol ?? 'symbol'} to ${newName} in ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}: ${plan.files.map((file) => file.shown).join(', ')}`;
    if (context.authorizeAction) {
      const decision = await context.authorizeAction({ tool: renameAction, args: { path: args.path!, files: plan.files.map((file) => file.shown) }, preview: { summary, detail: diff } });
      if (!decision.allowed) return `The rename was not made: ${decision.reason}`;
    }
    await writeAllOrNone(plan.files, access);
    for (const file of plan.files) {
      tracker.record(file.absolute, Buffer.from(file.after, 'utf8'), await mtimeAfterWrite(file.absolute));
      await options.servers.written(file.absolute, false);
    }
    return `Renamed ${args.symbol ?? 'the symbol'} to ${newName}: ${plan.files.length} file${plan.files.length === 1 ? '' : 's'} changed.\n${diff}`;
  }
}
