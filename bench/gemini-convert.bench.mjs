// The Gemini adapter's per-request work: neutral history to `contents` (with signature replay
// checks) and tool schemas to cleaned declarations, for histories of growing length. The loop
// sends the whole history every turn, so this cost repeats on every request.
import { ToolWireMap, GEMINI_NAME } from '../dist/providers/shared/tool-ids.js';
import { toGeminiContents, toGeminiTools } from '../dist/providers/google/convert.js';
import { ToolRegistry, calculatorTool, currentTimeTool, fetchUrlTool } from '../dist/index.js';

function history(rounds) {
  const messages = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Do the task.' }];
  for (let i = 0; i < rounds; i++) {
    const call = { id: `call_${i}`, name: 'calculator', arguments: JSON.stringify({ expression: `${i}+1` }) };
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [call],
      providerData: { provider: 'google', model: 'gemini-2.5-flash', parts: [{ text: 'thinking '.repeat(20), thought: true }, { functionCall: { name: 'calculator', args: { expression: `${i}+1` } }, thoughtSignature: 'c2ln'.repeat(100) }] },
    });
    messages.push({ role: 'tool', toolCallId: call.id, name: 'calculator', content: `${i}+1 = ${i + 1}\n`.repeat(20), isError: false });
  }
  return messages;
}

export default async function () {
  const tools = new ToolRegistry([calculatorTool, currentTimeTool, fetchUrlTool]).schemas();
  const rows = [];
  for (const rounds of [10, 100, 500]) {
    const messages = history(rounds);
    const iterations = rounds >= 500 ? 50 : 200;
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const wire = new ToolWireMap({ namePattern: GEMINI_NAME });
      toGeminiTools(tools, wire);
      toGeminiContents(messages, { provider: 'google', model: 'gemini-2.5-flash', wire });
    }
    rows.push({ 'tool rounds in history': rounds, messages: messages.length, 'ms per request': ((performance.now() - started) / iterations).toFixed(3) });
  }
  console.log('\nGemini adapter: history + tools to the wire, per request');
  console.table(rows);
}
