import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../src/skills/discover-skills.js';
import { parseFrontMatter } from '../src/skills/front-matter.js';
import { parseAllowedTools } from '../src/skills/allowed-tools.js';
import { setUpSkills } from '../src/skills/skill-setup.js';
import { skillsPrompt } from '../src/skills/skills-prompt.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { ofType, runScenario } from './support/harness.js';
import { skillRepo, writeSkills, type SkillRepo } from './support/skill-fixtures.js';

let fixture: SkillRepo;
afterEach(() => fixture?.cleanup());

function setup(): SkillRepo {
  fixture = skillRepo();
  writeSkills(fixture);
  return fixture;
}

describe('skill discovery', () => {
  it('finds skills in .agents, .claude and .vibe-agent up to the repository root and in the user config dir, saying where each came from', () => {
    const { workspace, env, repo } = setup();
    const { skills, warnings } = discoverSkills(workspace, env);
    expect(skills.map((s) => [s.name, s.scope])).toEqual([
      ['release-notes', 'project'],
      ['pdf-forms', 'project'],
      ['commit-style', 'user'],
    ]);
    expect(skills[1]!.origin).toBe(join(repo, '.claude/skills/pdf-forms/SKILL.md'));
    expect(skills[2]!.origin).toBe('~/../config/vibe-agent/skills/commit-style/SKILL.md'.replace('~/../', `${join(env.HOME, '..')}/`));
    expect(skills[0]!.allowedTools).toEqual(['read_file', 'grep']);
    expect(warnings).toEqual([expect.stringMatching(/\.vibe-agent\/skills\/broken\/SKILL\.md:3: malformed front matter, skill skipped/)]);
  });

  it('stops at the repository root and lets the nearer skill shadow a farther one of the same name', () => {
    const { workspace, env } = setup();
    fixture.write('.claude/skills/outside/SKILL.md', '---\ndescription: above the repository\n---\nx\n');
    fixture.write('repo/app/.claude/skills/pdf-forms/SKILL.md', '---\ndescription: the nearer one\n---\nnear\n');
    const { skills, warnings } = discoverSkills(workspace, env);
    expect(skills.map((s) => s.name)).not.toContain('outside');
    expect(skills.find((s) => s.name === 'pdf-forms')!.description).toBe('the nearer one');
    expect(warnings.some((w) => /repo\/\.claude\/skills\/pdf-forms\/SKILL\.md: skill "pdf-forms" is shadowed/.test(w))).toBe(true);
  });

  it('reports front matter problems with file and line, never throwing', () => {
    expect(parseFrontMatter('---\nname: x\ndescription: ok\nlist: [a, b\n---\n')).toMatchObject({ ok: false, line: 4 });
    expect(parseFrontMatter('---\nname: x\n')).toMatchObject({ ok: false, line: 1, message: expect.stringContaining('never closed') });
    expect(parseFrontMatter('no front matter')).toEqual({ ok: true, data: {}, body: 'no front matter', bodyLine: 1 });
    expect(parseFrontMatter('---\na: 1\n---\nbody\n')).toEqual({ ok: true, data: { a: 1 }, body: 'body\n', bodyLine: 4 });
  });

  it('skips a FIFO or huge SKILL.md with a warning naming it, without blocking or reading it whole', () => {
    const { workspace, env, repo, write } = setup();
    mkdirSync(join(repo, '.claude/skills/trap'), { recursive: true });
    spawnSync('mkfifo', [join(repo, '.claude/skills/trap/SKILL.md')]);
    write('repo/.claude/skills/huge/SKILL.md', `---\nname: huge\ndescription: big\n---\n${'x'.repeat(2 * 1024 * 1024)}\n`);
    const { skills, warnings } = discoverSkills(workspace, env);
    expect(skills.map((s) => s.name)).not.toEqual(expect.arrayContaining(['trap']));
    expect(skills.map((s) => s.name)).not.toContain('huge');
    expect(warnings).toEqual(expect.arrayContaining([expect.stringMatching(/trap\/SKILL\.md: skipped, not a regular file/), expect.stringMatching(/huge\/SKILL\.md: skipped, over the \d+-byte limit/)]));
  });

  it('maps allowed-tools from Claude names and lists, by tool', () => {
    expect(parseAllowedTools('Bash(git add:*), Read Glob')).toEqual(['bash(git add:*)', 'read_file', 'list_files']);
    expect(parseAllowedTools(['Read(src/**)', 'WebFetch(domain:example.com)'])).toEqual(['read_file(src/**)', 'fetch_url(domain:example.com)']);
    expect(parseAllowedTools(['grep', 'Edit'])).toEqual(['grep', 'edit_file']);
    expect(parseAllowedTools(undefined)).toBeUndefined();
  });
});

describe('the skills section of the system prompt', () => {
  it('lists names and descriptions only, identically each time, capped with a note', () => {
    const { workspace, env } = setup();
    const { skills } = discoverSkills(workspace, env);
    const prompt = skillsPrompt(skills);
    expect(prompt).toContain('- pdf-forms: Fill in PDF forms with the bundled script.');
    expect(prompt).not.toContain('scripts/fill.py');
    expect(skillsPrompt(discoverSkills(workspace, env).skills)).toBe(prompt);
    const capped = skillsPrompt(skills, { maxSkills: 1 });
    expect(capped).toContain('- release-notes:');
    expect(capped).toContain('(2 more skills are installed but not listed');
  });
});

describe('the skill tool in the agent loop', () => {
  function registry() {
    const skills = setUpSkills(fixture.workspace, fixture.env);
    return { skills, tools: new ToolRegistry([...createFileTools({ readRoots: skills.readRoots }), bashTool, skills.tool!], { gate: skills.gate }) };
  }

  it('loads a skill, then reads its bundled file outside the workspace (that folder only)', async () => {
    const { workspace, repo } = setup();
    const fields = join(repo, '.claude/skills/pdf-forms/reference/fields.md');
    const { tools } = registry();
    const { server, result } = await runScenario(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: fields } }] },
        { toolCalls: [{ name: 'skill', arguments: { name: 'pdf-forms' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: fields } }, { name: 'read_file', arguments: { path: join(repo, '.git/config') } }] },
        { text: 'The fields are name, date and signature.' },
      ],
      { tools, workspace },
    );
    expect(result.answer).toBe('The fields are name, date and signature.');
    const toolMessages = server.requests.at(-1)!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(toolMessages[0]).toMatch(/outside the workspace/);
    expect(toolMessages[1]).toContain('Run scripts/fill.py');
    expect(toolMessages[1]).toContain(fields);
    expect(toolMessages[1]).toContain(join(repo, '.claude/skills/pdf-forms/scripts/fill.py'));
    expect(toolMessages[2]).toContain('FIELD-NAMES: name, date, signature');
    expect(toolMessages[3]).toMatch(/outside the workspace/);
  });

  it('refuses a tool outside the active skill’s allowed-tools, in the tool layer', async () => {
    const { workspace } = setup();
    const { tools, skills } = registry();
    const { events } = await runScenario(
      [
        { toolCalls: [{ name: 'skill', arguments: { name: 'release-notes' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo should-not-run' } }] },
        { text: 'I may not use bash here.' },
      ],
      { tools, workspace, authorize: async () => ({ allowed: true }) },
    );
    const ends = ofType(events, 'tool_call_end');
    expect(ends.map((e) => e.status)).toEqual(['ok', 'denied']);
    expect(ends[1]!.output).toMatch(/^Denied: bash is not allowed while the skill "release-notes" is active; its allowed-tools permit only: read_file, grep/);
    skills.scope.beginRun();
    expect(skills.scope.refusal('bash')).toBeUndefined();
  });

  it('enforces argument-level allowed-tools as Claude Code writes them: Bash(cmd:*) and Read(glob), in the tool layer', async () => {
    const { workspace, write } = setup();
    write('repo/app/.agents/skills/safe-look/SKILL.md', '---\nname: safe-look\ndescription: Look without touching.\nallowed-tools: Bash(echo allowed:*), Read(src/**)\n---\nLook around.\n');
    write('repo/app/src/a.ts', 'export const inside = 1;\n');
    write('repo/app/secret/b.txt', 'OUTSIDE-THE-GLOB\n');
    const { tools, skills } = registry();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['bash', { command: 'echo allowed and more' }],
      ['bash', { command: 'echo allowed; echo CHAINED' }],
      ['bash', { command: 'echo allowed $(echo SUBST)' }],
      ['bash', { command: 'echo other' }],
      ['read_file', { path: 'src/a.ts' }],
      ['read_file', { path: 'secret/b.txt' }],
      ['read_file', { path: 'src/../secret/b.txt' }],
      ['write_file', { path: 'src/a.ts', content: 'overwritten' }],
    ];
    const { events } = await runScenario(
      [
        { toolCalls: [{ name: 'skill', arguments: { name: 'safe-look' } }] },
        ...calls.map(([name, args]) => ({ toolCalls: [{ name, arguments: args }] })),
        { text: 'done' },
      ],
      { tools, workspace, authorize: async () => ({ allowed: true }) },
    );
    const ends = ofType(events, 'tool_call_end');
    expect(ends.map((e) => e.status)).toEqual(['ok', 'ok', 'denied', 'denied', 'denied', 'ok', 'denied', 'denied', 'denied']);
    expect(ends[1]!.output).toContain('allowed and more');
    expect(ends[2]!.output).toMatch(/^Denied: this bash call is outside the allowed-tools of the skill "safe-look" \(bash\(echo allowed:\*\)\): a command limited to "echo allowed:\*" may not chain/);
    expect(ends[4]!.output).toMatch(/the command must start with "echo allowed"/);
    expect(ends[5]!.output).toContain('export const inside = 1;');
    expect(ends[6]!.output).toMatch(/the path must match "src\/\*\*" \(got "secret\/b.txt"\)/);
    expect(ends[8]!.output).toMatch(/^Denied: write_file is not allowed while the skill "safe-look" is active; its allowed-tools permit only: bash, read_file/);
    expect(ends.map((e) => String(e.output)).join('\n')).not.toMatch(/CHAINED|SUBST|OUTSIDE-THE-GLOB/);
    skills.scope.beginRun();
    expect(skills.scope.refusal('bash', { command: 'echo other' })).toBeUndefined();
  });

  it('says which skills exist when the name is unknown', async () => {
    setup();
    const { tools } = registry();
    const result = await tools.invoke({ id: '1', name: 'skill', arguments: '{"name":"nope"}' });
    expect(result).toMatchObject({ isError: true, content: 'No skill named "nope". Skills: release-notes, pdf-forms, commit-style.' });
  });
});
