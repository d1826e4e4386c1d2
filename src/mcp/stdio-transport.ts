import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killOnExit } from './kill-on-exit.js';

export interface StdioParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Longest message line read; a longer one is dropped with an error (the call then fails, not the server). */
  maxLineBytes: number;
  /** The SDK's JSON-RPC message schema (loaded with the client: see client-sdk.ts). */
  messageSchema: { parse(value: unknown): JSONRPCMessage };
  /** Everything the server writes to stderr, kept by the caller for failure messages. */
  onStderr(text: string): void;
}

const GRACE_MS = 2000;

/**
 * MCP over a child's stdin and stdout, one JSON-RPC message per line. Ours rather than the
 * SDK's because that one copies its whole buffer for every chunk read: a 20 MB result took
 * 18 s; here a line is joined once, when its newline arrives.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line that was too long: everything up to its newline is dropped. */
  private skipping = false;

  constructor(private readonly params: StdioParams) {}

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.params;
      const child = spawn(command, args, { env, ...(cwd ? { cwd } : {}), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
      this.child = child;
      child.once('spawn', () => {
        const forget = killOnExit(child.pid!);
        child.once('close', forget);
        resolve();
      });
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr!.on('data', (chunk: Buffer) => this.params.onStderr(chunk.toString()));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('the server process is not running'));
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const within = (ms: number) => Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
    child.stdin?.end();
    if (await within(GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await within(GRACE_MS)) return;
    child.kill('SIGKILL');
  }

  private read(chunk: Buffer): void {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      const tail = rest.subarray(0, newline);
      const line = this.pending.length ? Buffer.concat([...this.pending, tail]) : tail;
      const skipped = this.skipping;
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      rest = rest.subarray(newline + 1);
      if (!skipped) this.deliver(line);
    }
    if (this.skipping || rest.length === 0) return;
    this.pending.push(rest);
    this.pendingBytes += rest.length;
    if (this.pendingBytes > this.params.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.onerror?.(new Error(`the server sent a message over ${Math.round(this.params.maxLineBytes / 1024 / 1024)} MB; it was dropped`));
    }
  }

  private deliver(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    try {
      this.onmessage?.(this.params.messageSchema.parse(JSON.parse(text)));
    } catch {
      this.onerror?.(new Error(`the server wrote a line that is not JSON-RPC: ${JSON.stringify(text.slice(0, 120))}`));
    }
  }
}
