import { ownRedactor } from '../secrets/own-redactor.js';
import { redactedJson } from '../session/redact.js';
import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userDataDir, workspaceKey } from '../session/paths.js';
import type { Capture } from './pre-image.js';

/** One restorable point: the workspace (and where the conversation was) before a turn's tools ran, or before a rewind. */
export interface Checkpoint {
  /** 1, 2, 3… within the session. */
  n: number;
  at: string;
  kind: 'turn' | 'rewind';
  /**
   * The tree of the workspace at that point (see takeSnapshot). '' while its snapshot is still being
   * taken, or for good when the process ended first: then `preImages` is what is known of it.
   */
  tree: string;
  /** Files left out of the tree because of their size. */
  tooLarge: string[];
  /** For a turn: which run of the session (its n-th prompt) and which turn of that run. */
  run?: number;
  turn?: number;
  /** The prompt of that run, to recognise it in a list. */
  prompt?: string;
  /** For a rewind: the conversation before it was the first this many session records. */
  toRecord?: number;
  /** Files the file tools wrote after this point while its snapshot was being taken: each as it was at this point. */
  preImages?: Record<string, Exclude<Capture, { kind: 'skip' }>>;
}

/**
 * What a run or a rewind left the workspace as. `after`: how many checkpoints the log held then.
 * `made`: for a rewind, the files it wrote (its own captures, as a run's tree is the agent's).
 */
export interface Left {
  tree: string;
  after: number;
  made?: string[];
}

type LogLine =
  | ({ type: 'checkpoint' } & Omit<Checkpoint, 'preImages'>)
  | { type: 'left'; tree: string; at: string; made?: string[] }
  | { type: 'pre-image'; n: number; path: string; capture: Exclude<Capture, { kind: 'skip' }> };

/** Where a workspace's checkpoints live: one shadow git store, one log per session. */
export function checkpointsDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'checkpoints', workspaceKey(workspace));
}

/**
 * A session's checkpoints, as an append-only JSON-lines file next to the shadow store. A `left`
 * line records what the agent (or a rewind) left the workspace as: a later difference from it is
 * the user's own change, which a rewind must not overwrite silently.
 *
 * A turn's checkpoint is written when the turn begins, with no tree while its snapshot runs in the
 * background (`open`), and written again with its tree when the snapshot is done (`complete`); in
 * between, each file a file tool writes is first recorded as it was (a `pre-image` line, its content
 * already in the store). A process killed meanwhile so leaves a checkpoint a rewind can still use
 * (see planRewind).
 */
export class CheckpointLog {
  readonly path: string;
  private known: { size: number; count: number } | undefined;
  private dirMade = false;

  private readonly redact: (text: string) => string;

  constructor(workspace: string, sessionId: string, env: NodeJS.ProcessEnv = process.env) {
    this.path = join(checkpointsDir(workspace, env), 'sessions', `${sessionId}.jsonl`);
    // The prompts recorded here are redacted like the session file beside it.
    this.redact = ownRedactor(env);
  }

  read(): { checkpoints: Checkpoint[]; left: string | undefined; lefts: Left[] } {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { checkpoints: [], left: undefined, lefts: [] };
    }
    const checkpoints: Checkpoint[] = [];
    const lefts: Left[] = [];
    let left: string | undefined;
    const preImages = new Map<number, Record<string, Exclude<Capture, { kind: 'skip' }>>>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        continue;
      }
      if (parsed.type === 'left') {
        left = parsed.tree;
        lefts.push({ tree: parsed.tree, after: checkpoints.length, ...(Array.isArray(parsed.made) ? { made: parsed.made } : {}) });
      } else if (parsed.type === 'pre-image') {
        const known = preImages.get(parsed.n) ?? {};
        // The first line for a path is its content at the checkpoint.
        if (typeof parsed.path === 'string' && !(parsed.path in known)) known[parsed.path] = parsed.capture;
        preImages.set(parsed.n, known);
      } else {
        const { type: _type, ...checkpoint } = parsed;
        // The line that completes an opened checkpoint (its tree; the prompt is not written twice) completes it.
        const opened = checkpoints.findIndex((earlier) => earlier.n === checkpoint.n);
        if (opened === -1) checkpoints.push(checkpoint);
        else checkpoints[opened] = { ...checkpoints[opened]!, ...checkpoint };
      }
    }
    for (const checkpoint of checkpoints) {
      const known = preImages.get(checkpoint.n);
      if (known) checkpoint.preImages = known;
    }
    return { checkpoints, left, lefts };
  }

  /** `at`: when the workspace was as recorded (default now). */
  add(checkpoint: Omit<Checkpoint, 'n' | 'at'>, at = new Date().toISOString()): Checkpoint {
    const entry: Checkpoint = { n: this.count() + 1, at, ...checkpoint };
    this.write({ type: 'checkpoint', ...entry }, entry.n);
    return entry;
  }

  /** A turn's checkpoint whose tree is not known yet (see `complete`). */
  open(checkpoint: Omit<Checkpoint, 'n' | 'at' | 'tree' | 'tooLarge'>, at = new Date().toISOString()): Checkpoint {
    return this.add({ ...checkpoint, tree: '', tooLarge: [] }, at);
  }

  /** The opened checkpoint `opened`, with its tree. */
  complete(opened: Checkpoint, snapshot: { tree: string; tooLarge: string[] }): Checkpoint {
    const { preImages: _preImages, ...rest } = opened;
    const entry: Checkpoint = { ...rest, tree: snapshot.tree, tooLarge: snapshot.tooLarge };
    this.write({ type: 'checkpoint', n: entry.n, at: entry.at, kind: entry.kind, tree: entry.tree, tooLarge: entry.tooLarge }, this.count());
    return entry;
  }

  /** What `path` held at the opened checkpoint `n`, before a file tool writes it (its content is in the store). */
  preImage(n: number, path: string, capture: Exclude<Capture, { kind: 'skip' }>): void {
    this.write({ type: 'pre-image', n, path, capture }, this.count());
  }

  /** `made`: a rewind's, the files it wrote. */
  markLeft(tree: string, made?: string[]): void {
    this.write({ type: 'left', tree, at: new Date().toISOString(), ...(made ? { made } : {}) }, this.count());
  }

  /**
   * How many checkpoints the file holds: remembered from this object's last write while the file
   * is still the size it left (a turn must not read the whole log), else read.
   */
  private count(): number {
    const size = sizeOf(this.path);
    if (this.known?.size !== size) this.known = { size, count: this.read().checkpoints.length };
    return this.known.count;
  }

  /** Appends a line; `count()` has just been called, so the remembered size is the file's. */
  private write(line: LogLine, count: number): void {
    if (!this.dirMade) mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    this.dirMade = true;
    const text = `${redactedJson(line, this.redact)}\n`;
    appendFileSync(this.path, text, { mode: 0o600 });
    this.known = { size: (this.known?.size ?? 0) + Buffer.byteLength(text), count };
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
