import type { AgentEvent } from '../contracts/events.js';
import type { CliArgs } from './args.js';
import { serveDemoPage } from './demo-page.js';
import { demoTasks } from './demo-tasks.js';
import { exitCodeFor } from './exit-codes.js';
import { demoModel, runDemoTask } from './run-demo-task.js';
import { colorEnabled, createStyle } from './display/style.js';
import { oneLine, summarizeArguments } from './display/summarize.js';

export async function demoCommand(args: CliArgs, signal: AbortSignal): Promise<number> {
  if (args.compareProtocols) {
    const { compareProtocolsCommand } = await import('./compare-protocols.js');
    return compareProtocolsCommand(args, signal);
  }
  const style = createStyle(!args.json && colorEnabled(process.stdout));
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const real = await demoModel(args);
  const protocol = args.protocol ?? 'native';

  const page = await serveDemoPage();
  try {
    const tasks = demoTasks(page.url);
    if (!args.json) {
      out(style.bold("Vibe Agent demo: the course's four tasks"));
      out(
        real
          ? `Model: ${real.model} via ${real.provider.name}`
          : style.yellow('Model: built-in SCRIPTED model (offline). No provider is configured, so replies are scripted;\n' +
              'the tools run for real. Set OPENAI_API_KEY and VIBE_MODEL (or --provider/--model) to use a real model.'),
      );
      if (protocol !== 'native') out(`Protocol: ${protocol} (tools described in the prompt, JSON replies parsed)`);
      out(`Page for the fetch task: ${page.url} (served locally)\n`);
    }
    let worst = 0;
    for (const [index, task] of tasks.entries()) {
      const calls: string[] = [];
      if (!args.json) out(`${style.bold(`${index + 1}. ${task.title}`)}  ${style.dim(JSON.stringify(task.prompt))}`);
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'tool_call_start') {
          calls.push(event.call.name);
          if (!args.json) out(`   ${style.cyan('→')} ${event.call.name} ${style.dim(summarizeArguments(event.call.arguments))}`);
        }
        if (event.type === 'tool_call_end' && !args.json) out(`     ${event.isError ? style.red('✗') : style.green('✓')} ${style.dim(oneLine(event.output, 90))}`);
        if (event.type === 'protocol_error' && !args.json) out(style.yellow(`   ✗ reply not readable (${event.reason}): ${oneLine(event.error, 90)}`));
        if (event.type === 'retry' && !args.json) out(style.yellow(`   ↻ retry ${event.attempt}: ${oneLine(event.error, 90)}`));
      };
      const result = await runDemoTask(task, { protocol, real, pageUrl: page.url, signal }, onEvent);
      worst = Math.max(worst, exitCodeFor(result.stopReason));
      if (args.json) {
        out(JSON.stringify({ task: task.title, prompt: task.prompt, turns: result.turns, toolCalls: calls, answer: result.answer, stopReason: result.stopReason, handoff: result.handoff ?? null, protocol, protocolErrors: result.protocolErrors ?? 0 }));
      } else {
        out(`   turns: ${result.turns} · tool calls: ${calls.length ? calls.join(', ') : 'none'} · stop: ${result.stopReason}`);
        out(`   answer: ${result.answer ?? style.red(result.handoff ? `(none; hand-off: ${oneLine(result.handoff, 200)})` : `(none${result.error ? `: ${result.error}` : ''})`)}\n`);
      }
      if (result.stopReason === 'aborted') return exitCodeFor('aborted');
    }
    return worst;
  } finally {
    await page.close();
  }
}
