import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { realOrSame } from '../paths.js';
import type { ForeignAgent } from './import-model.js';

/** One foreign session as the listing shows it. */
export interface ForeignSessionSummary {
  agent: ForeignAgent;
  /** The agent's id for it (from the file name): what `import ID` takes, a unique prefix too. */
  id: string;
  path: string;
  title: string;
  updatedAt: Date;
  size: number;
  /** Prompts the user typed. */
  turns: number;
}

/**
 * The sessions each agent's store holds for this workspace, newest first, all of them. Only what
 * the listing shows is read: a file's lines are scanned for prompts as text (one JSON parse, for
 * the title), and Codex rollouts, which are filed by date, are opened only as far as their first line.
 */
export function findForeignSessions(workspace: string, env: NodeJS.ProcessEnv = process.env): ForeignSessionSummary[] {
  const real = realOrSame(workspace);
  const home = env.HOME || homedir();
  const found: ForeignSessionSummary[] = [];
  const claude = join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects', real.replace(/[^a-zA-Z0-9]/g, '-'));
  for (const path of files(claude, '.jsonl')) found.push(summarize('claude-code', path));
  const codexRoot = join(env.CODEX_HOME || join(home, '.codex'), 'sessions');
  for (const path of walk(codexRoot, 4).filter((path) => /rollout-.*\.jsonl$/.test(path))) {
    if (codexCwd(path) === real || codexCwd(path) === workspace) found.push(summarize('codex', path));
  }
  for (const dir of geminiDirs(join(home, '.gemini'), real)) for (const path of [...files(dir, '.jsonl'), ...files(dir, '.json')]) found.push(summarize('gemini-cli', path));
  const pi = join(env.PI_CODING_AGENT_DIR || join(home, '.pi', 'agent'), 'sessions', `--${real.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`);
  for (const path of files(pi, '.jsonl')) found.push(summarize('pi', path));
  return found.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
}

const PROMPT: Record<ForeignAgent, (line: string) => boolean> = {
  'claude-code': (line) => line.includes('"type":"user"') && !line.includes('"tool_result"') && !line.includes('"isMeta":true') && !line.includes('"isSidechain":true') && !line.includes('"isCompactSummary":true'),
  codex: (line) => line.includes('"type":"user_message"'),
  'gemini-cli': (line) => line.includes('"type":"user"'),
  pi: (line) => line.includes('"role":"user"'),
};

function summarize(agent: ForeignAgent, path: string): ForeignSessionSummary {
  const stat = statSync(path);
  const text = readFileSync(path, { encoding: 'utf8', flag: 'r' });
  let turns = 0;
  let title = '';
  let named = '';
  if (agent === 'gemini-cli' && path.endsWith('.json')) {
    const messages = (parse(text)?.messages ?? []) as Array<Record<string, unknown>>;
    const prompts = Array.isArray(messages) ? messages.filter((message) => message?.type === 'user') : [];
    return { agent, id: idOf(agent, path), path, title: oneLine(textOf(prompts[0]?.content)), updatedAt: stat.mtime, size: stat.size, turns: prompts.length };
  }
  for (const line of text.split('\n')) {
    if (agent === 'claude-code' && !named && (line.includes('"type":"summary"') || line.includes('"type":"custom-title"') || line.includes('"type":"ai-title"'))) {
      const record = parse(line);
      named = String(record?.summary ?? record?.customTitle ?? record?.aiTitle ?? record?.title ?? '');
    }
    // A torn last line (the agent was writing it) is not a prompt yet.
    if (!PROMPT[agent](line) || !line.trimEnd().endsWith('}')) continue;
    turns++;
    if (!title) title = titleOf(agent, parse(line));
  }
  return { agent, id: idOf(agent, path), path, title: oneLine(named || title), updatedAt: stat.mtime, size: stat.size, turns };
}

function titleOf(agent: ForeignAgent, record: Record<string, unknown> | undefined): string {
  if (!record) return '';
  if (agent === 'codex') return textOf((record.payload as Record<string, unknown> | undefined)?.message);
  if (agent === 'gemini-cli') return textOf(record.content);
  return textOf((record.message as Record<string, unknown> | undefined)?.content);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join(' ');
}

/** The id in the file's name: Claude Code's uuid, a rollout's trailing uuid, Gemini's and pi's names. */
function idOf(agent: ForeignAgent, path: string): string {
  const name = basename(path).replace(/\.jsonl?$/, '');
  const uuid = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(name);
  return agent === 'claude-code' ? name : uuid ? uuid[1]! : name;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function files(dir: string, extension: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith(extension)).map((entry) => join(dir, entry.name));
  } catch {
    return [];
  }
}

function walk(dir: string, depth: number): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => (entry.isDirectory() && depth > 0 ? walk(join(dir, entry.name), depth - 1) : entry.isFile() ? [join(dir, entry.name)] : []));
}

/** A rollout's `session_meta.cwd`, from its first line only (read in chunks until its newline). */
function codexCwd(path: string): string | undefined {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    const chunk = Buffer.alloc(64 * 1024);
    let head = '';
    for (let offset = 0; offset < 4 * 1024 * 1024; offset += chunk.length) {
      const read = readSync(fd, chunk, 0, chunk.length, offset);
      head += chunk.toString('utf8', 0, read);
      const end = head.indexOf('\n');
      if (end !== -1 || read < chunk.length) {
        const first = parse(end === -1 ? head : head.slice(0, end));
        const payload = (first?.payload ?? first) as Record<string, unknown> | undefined;
        return typeof payload?.cwd === 'string' ? payload.cwd : undefined;
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Gemini CLI's chats folders for a workspace: `tmp/<sha256 of the path>/chats` (older versions), and
 * a named `tmp/<name>/chats` whose `.project_root` holds the path or that `projects.json` maps it to.
 */
function geminiDirs(root: string, workspace: string): string[] {
  const dirs = [join(root, 'tmp', createHash('sha256').update(workspace).digest('hex'), 'chats')];
  for (const name of subdirectories(join(root, 'tmp'))) if (safeRead(join(root, 'tmp', name, '.project_root')).trim() === workspace) dirs.push(join(root, 'tmp', name, 'chats'));
  const projects = parse(safeRead(join(root, 'projects.json')));
  const map = (projects?.projects ?? projects) as Record<string, unknown> | undefined;
  const name = map?.[workspace];
  if (typeof name === 'string' && /^[\w.-]+$/.test(name)) dirs.push(join(root, 'tmp', name, 'chats'));
  return [...new Set(dirs)];
}

function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
