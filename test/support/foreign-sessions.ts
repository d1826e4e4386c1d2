import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Hand-written sessions in each agent's format, shaped like the real files (every record type seen
// in public samples): written into a fake HOME where each agent keeps them for `workspace`.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const lines = (records: unknown[], tail = '') => `${records.map((record) => JSON.stringify(record)).join('\n')}\n${tail}`;

export function claudeCodeSession(cwd: string): { main: string; subagent: string } {
  const base = { sessionId: 'c1a0de00-0000-4000-8000-000000000001', cwd, version: '2.0.14', userType: 'external', gitBranch: 'main', isSidechain: false };
  const user = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) => ({ ...base, type: 'user', uuid, parentUuid, timestamp: '2026-11-01T10:00:00Z', message: { role: 'user', content }, ...extra });
  const reply = (uuid: string, parentUuid: string, id: string, block: unknown) => ({ ...base, type: 'assistant', uuid, parentUuid, timestamp: '2026-11-01T10:00:01Z', requestId: `req_${id}`, message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [block], stop_reason: null, usage: { input_tokens: 10, output_tokens: 5 } } });
  const result = (uuid: string, parentUuid: string, toolUseId: string, content: unknown, isError = false) => user(uuid, parentUuid, [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }], { toolUseResult: { stdout: '' }, sourceToolAssistantUUID: parentUuid });
  const main = lines(
    [
      { type: 'file-history-snapshot', messageId: 'u1', snapshot: { messageId: 'u1', trackedFileBackups: {}, timestamp: '2026-11-01T10:00:00Z' }, isSnapshotUpdate: false },
      user('u1', null, 'Fix the failing test in math.ts'),
      reply('a1', 'u1', 'msg_1', { type: 'thinking', thinking: 'Run the tests first.', signature: 'sig-1' }),
      reply('a1b', 'a1', 'msg_1', { type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: { command: 'npm test', description: 'run tests' } }),
      reply('a1c', 'a1b', 'msg_1', { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${cwd}/math.ts` } }),
      reply('a1d', 'a1c', 'msg_1', { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: `${cwd}/math.ts` } }),
      result('r1', 'a1b', 'toolu_bash', 'FAIL math.test.ts: expected 4, got 5', true),
      result('r2', 'a1c', 'toolu_read', [{ type: 'text', text: 'export const add = (a, b) => a + b + 1;' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]),
      { ...base, type: 'system', subtype: 'turn_duration', uuid: 's1', parentUuid: 'r2', durationMs: 1200 },
      reply('a2', 's1', 'msg_2', { type: 'text', text: 'add() adds one too many.' }),
      reply('a2b', 'a2', 'msg_2', { type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: `${cwd}/math.ts`, old_string: 'a + b + 1', new_string: 'a + b' } }),
      result('r3', 'a2b', 'toolu_edit', 'The file has been updated.'),
      reply('a3', 'r3', 'msg_3', { type: 'text', text: 'Fixed: add() no longer adds one.' }),
      user('u2', 'a3', 'Now also add a test'),
      reply('a4', 'u2', 'msg_4', { type: 'text', text: 'Added a test for add().' }),
      user('u2b', 'a3', 'Instead, explain the fix'),
      reply('a5', 'u2b', 'msg_5', { type: 'tool_use', id: 'toolu_todo', name: 'TodoWrite', input: { todos: [{ content: 'explain', status: 'in_progress' }] } }),
      result('r5', 'a5', 'toolu_todo', 'Todos have been modified successfully.'),
      reply('a6', 'r5', 'msg_6', { type: 'text', text: 'The function added 1; now it returns a + b.' }),
      { type: 'mystery-record', uuid: 'm1', parentUuid: 'a6', data: 1 },
      { ...base, type: 'system', subtype: 'compact_boundary', uuid: 'cb', parentUuid: null, logicalParentUuid: 'a6', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 1234 } },
      user('cs', 'cb', 'This session is being continued from a previous conversation. Summary: add() was fixed and explained.', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
      user('u3', 'cs', [{ type: 'text', text: 'Carry on: is anything else off by one?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]),
      reply('a7t', 'u3', 'msg_7', { type: 'thinking', thinking: 'Scan the other functions.', signature: 'sig-7' }),
      reply('a7', 'a7t', 'msg_7', { type: 'text', text: 'Nothing else is off by one.' }),
      { ...base, isSidechain: true, type: 'user', uuid: 'sc1', parentUuid: null, message: { role: 'user', content: 'Search for other adders' } },
      { ...base, isSidechain: true, type: 'assistant', uuid: 'sc2', parentUuid: 'sc1', message: { id: 'msg_sc', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'text', text: 'None found.' }] } },
      { type: 'summary', summary: 'Fix off-by-one in add()', leafUuid: 'a7' },
    ],
    '{"type":"user","message":{"role":"user","content":"half a li',
  );
  const subagent = lines([
    { ...base, isSidechain: true, agentId: 'f00d', type: 'user', uuid: 'g1', parentUuid: null, message: { role: 'user', content: 'List the test files' } },
    { ...base, isSidechain: true, agentId: 'f00d', type: 'assistant', uuid: 'g2', parentUuid: 'g1', message: { id: 'msg_g', role: 'assistant', model: 'claude-haiku-4-5', content: [{ type: 'tool_use', id: 'toolu_glob', name: 'Glob', input: { pattern: '**/*.test.ts' } }] } },
    { ...base, isSidechain: true, agentId: 'f00d', type: 'user', uuid: 'g3', parentUuid: 'g2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_glob', content: 'math.test.ts' }] } },
  ]);
  return { main, subagent };
}

export function codexRollout(cwd: string): string {
  const item = (payload: object, at = '2026-11-02T09:00:01Z') => ({ timestamp: at, type: 'response_item', payload });
  const event = (payload: object) => ({ timestamp: '2026-11-02T09:00:01Z', type: 'event_msg', payload });
  return lines(
    [
      { timestamp: '2026-11-02T09:00:00Z', type: 'session_meta', payload: { id: '0190c0de-0000-7000-8000-000000000002', timestamp: '2026-11-02T09:00:00Z', cwd, originator: 'codex_cli_rs', cli_version: '0.104.0', source: 'cli', model_provider: 'openai', base_instructions: { text: 'You are Codex.' }, git: { commit_hash: 'abc', branch: 'main' } } },
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>workspace-write</permissions instructions>' }] }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }] }),
      event({ type: 'task_started', turn_id: 't1', model_context_window: 258400 }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Rename foo to bar in util.py' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] }),
      event({ type: 'user_message', message: 'Rename foo to bar in util.py', images: [] }),
      { timestamp: '2026-11-02T09:00:01Z', type: 'turn_context', payload: { turn_id: 't1', cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write' }, model: 'gpt-5.3-codex', effort: 'medium', summary: 'auto' } },
      event({ type: 'token_count', info: null }),
      event({ type: 'agent_reasoning', text: 'Find the uses first.' }),
      item({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Find the uses first.' }], content: null, encrypted_content: 'gAAAA-encrypted' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking for foo.' }], phase: 'commentary' }),
      item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'rg -n foo'], workdir: cwd, timeout_ms: 10000 }), call_id: 'call_shell' }),
      item({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat util.py' }), call_id: 'call_exec' }),
      item({ type: 'function_call_output', call_id: 'call_shell', output: JSON.stringify({ output: 'util.py:1:def foo():', metadata: { exit_code: 0 } }) }),
      item({ type: 'function_call_output', call_id: 'call_exec', output: 'def foo():\n    return 1\n' }),
      item({ type: 'custom_tool_call', status: 'completed', call_id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: util.py\n-def foo():\n+def bar():\n*** End Patch' }),
      item({ type: 'custom_tool_call_output', call_id: 'call_patch', output: JSON.stringify({ output: 'Success. Updated util.py', metadata: { exit_code: 0 } }) }),
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'python rename' } }),
      item({ type: 'local_shell_call', call_id: 'call_local', status: 'completed', action: { type: 'exec', command: ['python', '-c', 'import util'], timeout_ms: 5000 } }),
      item({ type: 'function_call_output', call_id: 'call_local', output: '' }),
      item({ type: 'function_call_output', call_id: 'call_nowhere', output: 'an orphan' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Renamed foo to bar.' }], phase: 'final_answer' }),
      event({ type: 'task_complete', last_agent_message: 'Renamed foo to bar.' }),
      { timestamp: '2026-11-02T09:05:00Z', type: 'compacted', payload: { message: 'Summary: foo was renamed to bar in util.py.', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Rename foo to bar in util.py' }] }] } },
      event({ type: 'context_compacted' }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Now run the tests' }] }),
      item({ type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['pytest', '-q'] }), call_id: 'call_tests' }),
      { timestamp: '2026-11-02T09:06:00Z', type: 'brand_new_record', payload: {} },
    ],
    '{"timestamp":"2026-11-02T09:06:01Z","type":"response_item","payload":{"type":"function_call_out',
  );
}

export function geminiChat(): { jsonl: string; legacy: string } {
  const meta = { sessionId: 'gem-0003', projectHash: 'x', startTime: '2026-11-03T08:00:00Z', lastUpdated: '2026-11-03T08:00:00Z', kind: 'main' };
  const call = (status: string, result: unknown) => ({ id: 'shell-1', name: 'run_shell_command', args: { command: 'ls -1', description: 'list' }, status, timestamp: '2026-11-03T08:00:02Z', displayName: 'Shell', result });
  const jsonl = lines([
    meta,
    { id: 'm1', timestamp: '2026-11-03T08:00:01Z', type: 'user', content: [{ text: 'What files are here?' }] },
    { id: 'm2', timestamp: '2026-11-03T08:00:02Z', type: 'gemini', content: '', model: 'gemini-2.5-pro', thoughts: [{ subject: 'Listing', description: 'I will run ls.', timestamp: '2026-11-03T08:00:02Z' }], toolCalls: [call('executing', null)] },
    { id: 'm2', timestamp: '2026-11-03T08:00:03Z', type: 'gemini', content: 'Here they are.', model: 'gemini-2.5-pro', thoughts: [{ subject: 'Listing', description: 'I will run ls.', timestamp: '2026-11-03T08:00:02Z' }], toolCalls: [call('success', [{ functionResponse: { id: 'shell-1', name: 'run_shell_command', response: { output: 'a.txt\nb.txt' } } }])], tokens: { input: 100, output: 10, cached: 0, total: 110 } },
    { id: 'm3', timestamp: '2026-11-03T08:00:04Z', type: 'info', content: 'Switched model.' },
    { id: 'm4', timestamp: '2026-11-03T08:00:05Z', type: 'user', content: 'Delete b.txt' },
    { id: 'm5', timestamp: '2026-11-03T08:00:06Z', type: 'gemini', content: 'Deleting.', model: 'gemini-2.5-pro' },
    { $rewindTo: 'm4' },
    { $set: { lastUpdated: '2026-11-03T08:01:00Z', summary: 'List files' } },
    { id: 'm6', timestamp: '2026-11-03T08:01:01Z', type: 'user', content: [{ text: 'Read a.txt' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
    { id: 'm7', timestamp: '2026-11-03T08:01:02Z', type: 'gemini', content: 'It is empty.', model: 'gemini-2.5-flash', toolCalls: [{ id: 'read-1', name: 'read_file', args: { absolute_path: '/w/a.txt' }, status: 'success', result: [{ functionResponse: { id: 'read-1', name: 'read_file', response: { output: '' } } }] }, { id: 'mem-1', name: 'save_memory', args: { fact: 'x' }, status: 'error', result: [{ functionResponse: { id: 'mem-1', name: 'save_memory', response: { error: 'denied' } } }] }] },
  ], '{"id":"m8","type":"gem');
  const legacy = JSON.stringify({ ...meta, sessionId: 'gem-legacy', messages: [
    { id: 'l1', timestamp: '2026-10-01T08:00:01Z', type: 'user', content: 'Hello' },
    { id: 'l2', timestamp: '2026-10-01T08:00:02Z', type: 'gemini', content: 'Hi! How can I help?', model: 'gemini-2.5-pro' },
  ] }, null, 2);
  return { jsonl, legacy };
}

export function piSession(cwd: string): { v3: string; v1: string } {
  const header = { type: 'session', version: 3, id: 'p1-0004', timestamp: '2026-11-04T07:00:00Z', cwd };
  const msg = (id: string, parentId: string | null, message: object) => ({ type: 'message', id, parentId, timestamp: '2026-11-04T07:00:01Z', message });
  const assistant = (content: unknown[], extra: object = {}) => ({ role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0.001 } }, stopReason: 'toolUse', timestamp: 1, ...extra });
  const v3 = lines([
    header,
    { type: 'model_change', id: 'e0', parentId: null, timestamp: '2026-11-04T07:00:00Z', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    { type: 'thinking_level_change', id: 'e0b', parentId: 'e0', timestamp: '2026-11-04T07:00:00Z', thinkingLevel: 'medium' },
    msg('e1', 'e0b', { role: 'user', content: [{ type: 'text', text: 'Count the lines of README.md' }], timestamp: 1 }),
    msg('e2', 'e1', assistant([{ type: 'thinking', thinking: 'Use wc.', thinkingSignature: 'sig-pi' }, { type: 'toolCall', id: 'tc1', name: 'bash', arguments: { command: 'wc -l README.md' } }])),
    msg('e3', 'e2', { role: 'toolResult', toolCallId: 'tc1', toolName: 'bash', content: [{ type: 'text', text: '42 README.md' }], isError: false, timestamp: 2 }),
    msg('e4', 'e3', assistant([{ type: 'text', text: 'README.md has 42 lines.' }], { stopReason: 'stop' })),
    msg('e5', 'e4', { role: 'user', content: 'And package.json?' }),
    msg('e6', 'e5', assistant([{ type: 'toolCall', id: 'tc2', name: 'read', arguments: { path: 'package.json' } }])),
    msg('e7', 'e6', { role: 'toolResult', toolCallId: 'tc2', toolName: 'read', content: [{ type: 'text', text: '{"name":"x"}' }, { type: 'image', data: PNG, mimeType: 'image/png' }], isError: false }),
    msg('e8', 'e7', assistant([{ type: 'text', text: 'One line.' }], { stopReason: 'stop' })),
    { type: 'branch_summary', id: 'e9', parentId: 'e4', timestamp: '2026-11-04T07:02:00Z', fromId: 'e8', summary: 'Looked at package.json.' },
    msg('e10', 'e9', { role: 'user', content: 'Count the words instead' }),
    msg('e11', 'e10', assistant([], { stopReason: 'aborted', errorMessage: 'Request was aborted' })),
    msg('e12', 'e10', assistant([{ type: 'thinking', thinking: 'grep for it.', thinkingSignature: 'sig-pi-2' }, { type: 'toolCall', id: 'tc3', name: 'grep', arguments: { pattern: 'TODO', path: '.', limit: 5 } }])),
    msg('e13', 'e12', { role: 'toolResult', toolCallId: 'tc3', toolName: 'grep', content: [{ type: 'text', text: 'none' }], isError: false }),
    { type: 'compaction', id: 'e14', parentId: 'e13', timestamp: '2026-11-04T07:03:00Z', summary: 'Counted lines; now counting words.', firstKeptEntryId: 'e10', tokensBefore: 5000 },
    { type: 'label', id: 'e15', parentId: 'e14', timestamp: '2026-11-04T07:03:01Z', targetId: 'e10', label: 'words' },
    msg('e16', 'e15', assistant([{ type: 'text', text: 'README.md has 300 words.' }], { stopReason: 'stop' })),
    { type: 'custom', id: 'e17', parentId: 'e16', timestamp: '2026-11-04T07:03:02Z', customType: 'my-extension', data: { x: 1 } },
    { type: 'future_entry', id: 'e18', parentId: 'e17', timestamp: '2026-11-04T07:03:03Z' },
  ]);
  const v1 = lines([
    { type: 'session', id: 'p1-legacy', timestamp: '2025-11-20T23:33:50Z', cwd, provider: 'anthropic', modelId: 'claude-sonnet-4-5', thinkingLevel: 'off' },
    { type: 'message', timestamp: '2025-11-20T23:33:51Z', message: { role: 'user', content: [{ type: 'text', text: 'List src' }] } },
    { type: 'message', timestamp: '2025-11-20T23:33:52Z', message: assistant([{ type: 'toolCall', id: 'v1c', name: 'ls', arguments: { path: 'src' } }]) },
    { type: 'message', timestamp: '2025-11-20T23:33:53Z', message: { role: 'toolResult', toolCallId: 'v1c', toolName: 'ls', content: [{ type: 'text', text: 'a.ts' }], isError: false } },
    { type: 'message', timestamp: '2025-11-20T23:33:54Z', message: assistant([{ type: 'text', text: 'src holds a.ts.' }], { stopReason: 'stop' }) },
    { type: 'compaction', timestamp: '2025-11-20T23:34:00Z', summary: 'Listed src.', firstKeptEntryIndex: 4, tokensBefore: 900 },
    { type: 'message', timestamp: '2025-11-20T23:34:01Z', message: { role: 'bashExecution', command: 'ls', output: 'a.ts', exitCode: 0, cancelled: false, truncated: false } },
    { type: 'message', timestamp: '2025-11-20T23:34:02Z', message: { role: 'user', content: 'Thanks' } },
  ]);
  return { v3, v1 };
}

/** Writes every fixture where its agent keeps sessions for `workspace` under `home`; returns their paths. */
export function writeForeignStores(home: string, workspace: string): Record<'claude' | 'codex' | 'gemini' | 'geminiLegacy' | 'pi' | 'piV1', string> {
  const real = realpathSync(workspace);
  const claudeDir = join(home, '.claude', 'projects', real.replace(/[^a-zA-Z0-9]/g, '-'));
  const cc = claudeCodeSession(real);
  const claude = join(claudeDir, 'c1a0de00-0000-4000-8000-000000000001.jsonl');
  mkdirSync(join(claudeDir, 'c1a0de00-0000-4000-8000-000000000001', 'subagents'), { recursive: true });
  writeFileSync(claude, cc.main);
  writeFileSync(join(claudeDir, 'c1a0de00-0000-4000-8000-000000000001', 'subagents', 'agent-f00d.jsonl'), cc.subagent);
  const codexDir = join(home, '.codex', 'sessions', '2026', '11', '02');
  mkdirSync(codexDir, { recursive: true });
  const codex = join(codexDir, 'rollout-2026-11-02T09-00-00-0190c0de-0000-7000-8000-000000000002.jsonl');
  writeFileSync(codex, codexRollout(real));
  const geminiDir = join(home, '.gemini', 'tmp', createHash('sha256').update(real).digest('hex'), 'chats');
  mkdirSync(geminiDir, { recursive: true });
  const g = geminiChat();
  const gemini = join(geminiDir, 'session-2026-11-03T08-00-gem00003.jsonl');
  const geminiLegacy = join(geminiDir, 'session-2026-10-01T08-00-legacy.json');
  writeFileSync(gemini, g.jsonl);
  writeFileSync(geminiLegacy, g.legacy);
  const piDir = join(home, '.pi', 'agent', 'sessions', `--${real.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`);
  mkdirSync(piDir, { recursive: true });
  const p = piSession(real);
  const pi = join(piDir, '2026-11-04T07-00-00-000Z_p1-0004.jsonl');
  const piV1 = join(piDir, '2025-11-20T23-33-50-000Z_p1-legacy.jsonl');
  writeFileSync(pi, p.v3);
  writeFileSync(piV1, p.v1);
  return { claude, codex, gemini, geminiLegacy, pi, piV1 };
}
