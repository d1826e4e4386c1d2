// Subagents' overhead: a parent starting 8 children that each make 10 tool rounds, against the same
// 8 children run directly with run() in parallel plus the parent's own two requests. One local server.
import { createServer } from 'node:http';
import { run, withSubagents, runChildConversation, OpenAIProvider, ToolRegistry, calculatorTool } from '../dist/index.js';

const CHILDREN = 8;
const ROUNDS = 10;

function sse(res, delta, finish) {
  res.write(`data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
}

function call(res, index, id, name, args) {
  sse(res, { tool_calls: [{ index, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, null);
}

/** The parent ("lead") asks for 8 tasks, then answers; a child calls calculator until it has ROUNDS results. */
function startServer() {
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      requests++;
      const messages = JSON.parse(body).messages;
      const first = messages.find((m) => m.role === 'user').content;
      const done = messages.filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (first === 'lead' && done === 0) {
        for (let i = 0; i < CHILDREN; i++) call(res, i, `t${i}`, 'task', { description: `part ${i}`, prompt: `child ${i}` });
        sse(res, {}, 'tool_calls');
      } else if (first === 'lead' || done >= ROUNDS) {
        sse(res, { content: 'done' }, null);
        sse(res, {}, 'stop');
      } else {
        call(res, 0, `c${done}`, 'calculator', { expression: `${done}+1` });
        sse(res, {}, 'tool_calls');
      }
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/v1`, count: () => requests })));
}

// The tree's --max-turns covers every agent: the tree run gets room for all 90 requests.
const quiet = { repeatLimit: 1e9, changingRepeatLimit: 1e9, maxTurns: ROUNDS + 2 };

async function tree(provider) {
  const started = performance.now();
  const result = await run(withSubagents({ provider, model: 'm', input: 'lead', tools: new ToolRegistry([calculatorTool]), ...quiet, maxTurns: 1000 }, { concurrency: CHILDREN, runChild: runChildConversation }));
  if (result.stopReason !== 'answered' || result.agents.length !== CHILDREN + 1) throw new Error(`tree ended ${result.stopReason}`);
  return performance.now() - started;
}

async function direct(provider) {
  const started = performance.now();
  // The parent's two requests, then the children side by side: what the tree does, without the tree.
  await run({ provider, model: 'm', input: 'lead', tools: new ToolRegistry([]), ...quiet, maxTurns: 1, handoff: false });
  await run({ provider, model: 'm', input: 'lead', messages: [], tools: new ToolRegistry([]), ...quiet });
  const children = Array.from({ length: CHILDREN }, (_, i) => run({ provider, model: 'm', input: `child ${i}`, tools: new ToolRegistry([calculatorTool]), ...quiet }));
  const results = await Promise.all(children);
  if (results.some((result) => result.stopReason !== 'answered')) throw new Error('a direct child did not answer');
  return performance.now() - started;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function agentsBench() {
  const { server, url, count } = await startServer();
  const provider = new OpenAIProvider({ apiKey: 'x', baseURL: url });
  await tree(provider);
  await direct(provider); // warm-up
  const trees = [];
  const directs = [];
  for (let i = 0; i < 5; i++) {
    const before = count();
    trees.push(await tree(provider));
    if (count() - before !== 2 + CHILDREN * (ROUNDS + 1)) throw new Error(`expected ${2 + CHILDREN * (ROUNDS + 1)} requests, saw ${count() - before}`);
    directs.push(await direct(provider));
  }
  server.close();
  const [t, d] = [median(trees), median(directs)];
  console.log(`\nSubagents: ${CHILDREN} children x ${ROUNDS} tool rounds, median of 5`);
  console.log('| tree ms | direct ms | parent overhead per child ms |');
  console.log('|---|---|---|');
  console.log(`| ${t.toFixed(1)} | ${d.toFixed(1)} | ${((t - d) / CHILDREN).toFixed(2)} |`);
}
