import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody, type ChatServer, type ServerStep } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { skillRepo, type SkillRepo } from './support/skill-fixtures.js';

let fixture: SkillRepo | undefined;
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  fixture?.cleanup();
});

/** A skill body the size of anthropics/skills' claude-api (72,144 characters), every line different. */
function longBody(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let n = 0; length < chars; n++) {
    const line = `Step ${n}: call the endpoint with parameter p${n} = ${(n * 7919) % 10007} and check field f${n % 97}.`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

const lastTool = (body: ChatRequestBody) => String(body.messages.at(-1)!.content);

/** The model: pages the cut output with read_output from where the last slice ended, until its end. */
const pager: ServerStep = (body) => {
  const text = lastTool(body);
  const noted = /full output saved as output id (out_[0-9a-f]{12}); call read_output to see more/.exec(text);
  if (noted) return { toolCalls: [{ name: 'read_output', arguments: { id: noted[1], offset: 0 } }] };
  const slice = /^\[output (out_[0-9a-f]{12}): characters \d+–\d+ of \d+; more from offset (\d+)\]/.exec(text);
  if (slice) return { toolCalls: [{ name: 'read_output', arguments: { id: slice[1], offset: Number(slice[2]) } }] };
  return { text: 'read it all' };
};

describe('what a cap leaves out can be paged back whole', () => {
  it('a 72k-character skill body: the model is told how to page, and read_output returns every character', async () => {
    fixture = skillRepo();
    const body = longBody(72_144);
    fixture.write('repo/.claude/skills/big-api/SKILL.md', `---\nname: big-api\ndescription: A long API reference.\n---\n${body}\n`);
    const server = await startChatServer([{ toolCalls: [{ name: 'skill', arguments: { name: 'big-api' } }] }, ...Array.from({ length: 20 }, () => pager)]);
    servers.push(server);
    const env = { ...fixture.env, XDG_DATA_HOME: join(fixture.root, 'data'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await spawnCli(['use the big-api skill'], { cwd: fixture.workspace, env });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('read it all');
    expect(server.violations).toEqual([]);

    const seen = lastTool(server.requests[1]!);
    expect(seen.length).toBeLessThan(20_000);
    expect(seen).toMatch(/^Skill "big-api" loaded from /);
    const note = /\[… [\d,]+ chars \([\d,]+ lines\) omitted of ([\d,]+); full output saved as output id (out_[0-9a-f]{12}); call read_output to see more\]/.exec(seen)!;
    expect(note).not.toBeNull();
    expect(server.requests[1]!.tools!.map((tool) => tool.function.name)).toContain('read_output');

    const slices = server.requests.slice(2).map(lastTool);
    const whole = slices.map((slice) => slice.slice(slice.indexOf('\n') + 1)).join('');
    expect(whole.length).toBe(Number(note[1]!.replaceAll(',', '')));
    expect(whole).toContain(`\n\n${body}\n\n`);
    expect(whole.startsWith('Skill "big-api" loaded from ')).toBe(true);
    expect(slices.at(-1)).toMatch(/; end of output\]/);
  });
});
