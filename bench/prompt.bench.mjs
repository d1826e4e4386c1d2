// The first request's fixed cost: the system prompt plus the default tool set's schemas, in
// o200k tokens, counted on the exact JSON the OpenAI adapter sends. Target: at most 1,500.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { DEFAULT_SYSTEM_PROMPT } from '../dist/core/system-prompt.js';
import { toOpenAITools } from '../dist/providers/openai/convert.js';
import { selectTools } from '../dist/cli/setup/select-tools.js';

const BUDGET = 1500;

export default async function promptBench() {
  const tools = selectTools(undefined);
  const wireTools = toOpenAITools(tools.map((tool) => tool.schema));
  const rows = tools.map((tool, i) => [tool.name, encode(JSON.stringify(wireTools[i])).length]);
  const system = encode(JSON.stringify({ role: 'system', content: DEFAULT_SYSTEM_PROMPT })).length;
  const toolsTotal = encode(JSON.stringify(wireTools)).length;
  const total = system + toolsTotal;

  console.log('\nFirst request: system prompt + default tool schemas (o200k tokens, as sent)');
  console.log('| part | tokens |');
  console.log('|---|---:|');
  console.log(`| system prompt | ${system} |`);
  for (const [name, count] of rows) console.log(`| tool ${name} | ${count} |`);
  console.log(`| all ${tools.length} tool schemas | ${toolsTotal} |`);
  console.log(`| **total** | **${total}** (budget ${BUDGET}: ${total <= BUDGET ? 'met' : 'MISSED'}) |`);
}
