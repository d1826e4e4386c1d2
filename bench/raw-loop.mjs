// The floor the agent is measured against: a bare tool loop with Node's fetch, no SDK, no session,
// no context policy. Same wire format as the agent (OpenAI chat completions, streamed), one tool
// (calculator). Usage: OPENAI_BASE_URL=http://host/v1 node bench/raw-loop.mjs "prompt"
const base = process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
const model = process.env.VIBE_MODEL ?? 'gpt-4o';
const tools = [
  {
    type: 'function',
    function: {
      name: 'calculator',
      description: 'Evaluate an arithmetic expression.',
      parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    },
  },
];
const messages = [{ role: 'user', content: process.argv[2] ?? 'go' }];

/** Reads an SSE chat-completions stream into one assistant message. */
async function readReply(res) {
  const message = { role: 'assistant', content: '', tool_calls: [] };
  let buffer = '';
  for await (const chunk of res.body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const line = buffer.slice(0, end).replace(/^data: /, '');
      buffer = buffer.slice(end + 2);
      if (line === '[DONE]') continue;
      const delta = JSON.parse(line).choices?.[0]?.delta ?? {};
      if (delta.content) message.content += delta.content;
      for (const call of delta.tool_calls ?? []) {
        const slot = (message.tool_calls[call.index] ??= { id: call.id, type: 'function', function: { name: '', arguments: '' } });
        if (call.function?.name) slot.function.name += call.function.name;
        if (call.function?.arguments) slot.function.arguments += call.function.arguments;
      }
    }
  }
  return message;
}

function calculator({ expression }) {
  if (!/^[\d+\-*/(). ]+$/.test(expression)) return `not an arithmetic expression: ${expression}`;
  return `${expression} = ${Function(`return (${expression})`)()}`;
}

for (let turn = 0; turn < 1000; turn++) {
  const body = JSON.stringify({ model, messages, tools, stream: true, temperature: 0 });
  const res = await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY ?? ''}` }, body });
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const message = await readReply(res);
  if (!message.tool_calls.length) delete message.tool_calls;
  messages.push(message);
  if (!message.tool_calls) {
    console.log(message.content);
    break;
  }
  for (const call of message.tool_calls) {
    let output;
    try {
      output = calculator(JSON.parse(call.function.arguments));
    } catch (error) {
      output = `error: ${error.message}`;
    }
    messages.push({ role: 'tool', tool_call_id: call.id, content: output });
  }
}
