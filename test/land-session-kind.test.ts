import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliArgs } from '../src/cli/args/cli-args.js';
import { recordedLand } from '../src/background/land-record.js';
import { pickSession } from '../src/cli/commands/run/session-picker.js';
import { chooseSessionPath } from '../src/cli/prompt/session-choice.js';
import { UsageError } from '../src/cli/settings/usage-error.js';
import { listSessions } from '../src/session/list-sessions.js';
import { readSessionFile } from '../src/session/read-session.js';
import { createSession } from '../src/session/session-store.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("a land's rewind point is not a conversation", () => {
  it('is found by rewind as the latest session, and passed by --continue, --resume ID and the --resume picker', async () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-land-kind-'));
    roots.push(root);
    const workspace = join(root, 'repo');
    mkdirSync(workspace);
    const env = { HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };

    // A conversation from a minute ago, then a land.
    const earlier = new Date(Date.now() - 60_000);
    const talk = createSession({ workspace, env, now: earlier });
    talk.writer.append({ type: 'run_start', provider: 'openai', model: 'm', tools: [], input: 'fix the parser' });
    talk.close();
    utimesSync(talk.path, earlier, earlier);
    const { sessionId } = await recordedLand(workspace, 'land two (vibe/two at 0123456789ab)', env, () => writeFileSync(join(workspace, 'landed.txt'), 'landed\n'));

    const all = listSessions(workspace, env);
    expect(all.map((session) => [session.id, session.kind])).toEqual([
      [sessionId, 'land'],
      [talk.id, undefined],
    ]);
    expect(readSessionFile(all[0]!.path).header).toMatchObject({ kind: 'land' });

    const continuing = { continue: true } as unknown as CliArgs;
    expect(chooseSessionPath(continuing, workspace, env)).toBe(talk.path);
    // rewind asks for lands too: the latest is the land it undoes.
    expect(chooseSessionPath(continuing, workspace, env, { lands: true })).toBe(all[0]!.path);
    expect(chooseSessionPath({ resume: sessionId } as unknown as CliArgs, workspace, env, { lands: true })).toBe(all[0]!.path);
    expect(() => chooseSessionPath({ resume: sessionId } as unknown as CliArgs, workspace, env)).toThrow(UsageError);
    expect(() => chooseSessionPath({ resume: sessionId } as unknown as CliArgs, workspace, env)).toThrow(`${sessionId} is the rewind point of a land (land two (vibe/two at 0123456789ab)), not a conversation to resume; undo it with: vibe-agent rewind --resume ${sessionId}`);

    const output = new PassThrough();
    let listed = '';
    output.on('data', (chunk) => (listed += chunk));
    const picked = await pickSession(workspace, undefined, { input: new PassThrough(), output, interactive: false }, env);
    expect(picked).toEqual({ exitCode: 2 });
    expect(listed).toContain(talk.id);
    expect(listed).not.toContain(sessionId);
    expect(listed).toContain(`vibe-agent --resume ${talk.id}`);
  });
});
