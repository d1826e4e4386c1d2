// Token economy: a 100-turn scripted session (in-process scripted model, each turn reads a 20 KB
// file) with the context policy versus the naive loop that resends everything. Every request's
// prompt is counted with the o200k_base tokenizer, independently of the policy's own counting.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { run, ScriptedProvider, ToolRegistry, defineTool, createContextPolicy } from '../dist/index.js';

const TURNS = 100;
const OUTPUT_CHARS = 20_480;
const noSpecial = { disallowedSpecial: new Set() };

function fileText(seed) {
  const words = ['const', 'return', 'import', 'value', 'config', 'handler', 'error', 'result', 'index', 'buffer', 'stream', 'request'];
  let state = seed * 2_654_435_761 + 1;
  let text = '';
  for (let line = 1; text.length < OUTPUT_CHARS; line++) {
    const parts = [];
    for (let w = 0; w < 8; w++) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      parts.push(`${words[state % words.length]}${state % 997}`);
    }
    text += `${seed}:${line} ${parts.join(' ')}\n`;
  }
  return text.slice(0, OUTPUT_CHARS);
}

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file by number.',
  parameters: z.object({ n: z.number().int() }),
  readOnly: true,
  execute: async ({ n }) => fileText(n),
});

// Messages are shared between requests, so each is tokenized once.
const cache = new WeakMap();
function messageTokens(message) {
  let tokens = cache.get(message);
  if (tokens !== undefined) return tokens;
  tokens = 4 + countTokens(message.content, noSpecial);
  for (const call of message.toolCalls ?? []) tokens += 4 + countTokens(call.id + call.name + call.arguments, noSpecial);
  cache.set(message, tokens);
  return tokens;
}
const requestTokens = (request) => 3 + request.messages.reduce((sum, m) => sum + messageTokens(m), 0) + (request.tools.length ? countTokens(JSON.stringify(request.tools), noSpecial) : 0);

function script() {
  let turn = 0;
  const step = (request) => {
    if (request.tools.length === 0) {
      // A summary request: the scripted summariser keeps the lines that state facts.
      const facts = request.messages.at(-1).content.split('\n').filter((line) => /deploy key/.test(line));
      return { text: `## Goal\nRead all files.\n## Facts to keep\n${[...new Set(facts)].join('\n')}\n## Open items\nContinue.` };
    }
    turn++;
    if (turn > TURNS) return { text: 'All files read.' };
    return { text: `Reading file ${turn}; so far the parser keeps its edge cases and the tests pass.`, toolCalls: [{ name: 'read_file', arguments: { n: turn } }] };
  };
  return Array.from({ length: TURNS * 2 }, () => step);
}

async function session(label, policyOptions) {
  const provider = new ScriptedProvider(script());
  const registry = new ToolRegistry([readFile]);
  const policy = policyOptions && createContextPolicy({ provider, registry, ...policyOptions });
  const started = performance.now();
  let compactions = 0;
  const result = await run(
    {
      provider,
      model: 'gpt-4o',
      input: 'Read files 1 to 100. The deploy key is named ORCHID-7.',
      tools: registry,
      maxTurns: TURNS + 1,
      repeatLimit: 1e9,
      changingRepeatLimit: 1e9,
      ...(policy ? { prepareMessages: policy.prepareMessages, onContextOverflow: policy.onContextOverflow } : {}),
    },
    (event) => {
      if (event.type === 'compaction') compactions++;
    },
  );
  const ms = performance.now() - started;
  if (result.stopReason !== 'answered') throw new Error(`${label}: the run ended ${result.stopReason}`);
  const agent = provider.requests.filter((r) => r.tools.length > 0).map(requestTokens);
  const all = provider.requests.map(requestTokens);
  const sorted = [...agent].sort((a, b) => a - b);
  const budget = policy ? policy.settings('gpt-4o').inputBudget : undefined;
  return {
    label,
    budget,
    requests: provider.requests.length,
    min: sorted[0],
    median: sorted[Math.floor(sorted.length / 2)],
    max: Math.max(...all),
    total: all.reduce((a, b) => a + b, 0),
    over: budget === undefined ? 0 : all.filter((t) => t > budget).length,
    compactions,
    ms,
  };
}

export default async function contextBench() {
  const naive = await session('naive loop (everything resent)');
  const rows = [naive, await session('policy, gpt-4o (128k window)', {}), await session('policy, --context-window 32768', { contextWindow: 32_768 }), await session('policy, --context-window 8192', { contextWindow: 8_192 })];
  console.log(`\nToken economy: ${TURNS} turns, each reading a ${OUTPUT_CHARS / 1024} KB file (prompt tokens per request, o200k_base)`);
  console.table(
    rows.map((row) => {
      const share = row.total / naive.total;
      const pass = row === naive ? '' : share <= 0.25 && row.over === 0 ? 'PASS' : 'MISS';
      return {
        run: row.label,
        requests: row.requests,
        'min/req': row.min,
        'median/req': row.median,
        'max/req': row.max,
        'input budget': row.budget ?? '—',
        'over budget': row.budget === undefined ? '—' : row.over,
        compactions: row.compactions,
        'total sent': row.total,
        'vs naive': `${(share * 100).toFixed(1)}%`,
        target: row === naive ? '' : '≤ 25%, none over',
        result: pass,
        ms: row.ms.toFixed(0),
      };
    }),
  );
}
