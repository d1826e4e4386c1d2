import type { AgentEvent } from '../../../contracts/events.js';
import type { CliArgs } from '../../args/cli-args.js';
import type { DemoArgs } from './demo-args.js';
import { serveDemoPage } from './demo-page.js';
import { demoTasks } from './demo-tasks.js';
import { exitCodeFor } from '../../settings/exit-codes.js';
import { demoModel, runDemoTask } from './run-demo-task.js';
import { describeEvent, paintLine } from '../../display/describe-event.js';
import { createJsonLinesRenderer } from '../../display/json-lines.js';
import { oneLine } from '../../display/summarize.js';
import { colorEnabled, createTheme, type Theme } from '../../display/theme.js';
import { safeStdout } from '../../display/safe-output.js';

/** The demo shows calls, results and hiccups; streamed text is summed up in each task's answer line. */
const SHOWN: ReadonlySet<AgentEvent['type']> = new Set(['tool_call_start', 'tool_call_end', 'protocol_error', 'retry']);

export async function demoCommand(args: CliArgs & DemoArgs, signal: AbortSignal): Promise<number> {
  if (args.compareProtocols) {
    const { compareProtocolsCommand } = await import('./compare-protocols.js');
    return compareProtocolsCommand(args, signal);
  }
  const theme = createTheme(!args.json && colorEnabled(process.stdout));
  const out = (line: string) => safeStdout.write(`${line}\n`);
  const real = await demoModel(args);
  const protocol = args.protocol ?? 'native';
  // --json prints the events of each task's run, exactly as `vibe-agent "…" --json` prints a run's.
  const json = args.json ? createJsonLinesRenderer(process.stdout, args.apiKey) : undefined;

  const page = await serveDemoPage();
  try {
    const tasks = demoTasks(page.url);
    if (!json) {
      out(theme.bold("Vibe Agent demo: the course's four tasks"));
      out(
        real
          ? `Model: ${real.model} via ${real.provider.name}`
          : theme.yellow('Model: built-in SCRIPTED model (offline). No provider is configured, so replies are scripted;\n' +
              'the tools run for real. Set OPENAI_API_KEY and VIBE_MODEL (or --provider/--model) to use a real model.'),
      );
      if (protocol !== 'native') out(`Protocol: ${protocol} (tools described in the prompt, JSON replies parsed)`);
      out(`Page for the fetch task: ${page.url} (served locally)\n`);
    }
    let worst = 0;
    for (const [index, task] of tasks.entries()) {
      const calls: string[] = [];
      if (!json) out(`${theme.bold(`${index + 1}. ${task.title}`)}  ${theme.dim(JSON.stringify(task.prompt))}`);
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'tool_call_start') calls.push(event.call.name);
        if (json) json(event);
        else showEvent(event, theme, out);
      };
      const result = await runDemoTask(task, { protocol, real, pageUrl: page.url, signal }, onEvent);
      worst = Math.max(worst, exitCodeFor(result.stopReason));
      if (!json) {
        out(`   turns: ${result.turns} · tool calls: ${calls.length ? calls.join(', ') : 'none'} · stop: ${result.stopReason}`);
        out(`   answer: ${result.answer ?? theme.red(result.handoff ? `(none; hand-off: ${oneLine(result.handoff, 200)})` : `(none${result.error ? `: ${result.error}` : ''})`)}\n`);
      }
      if (result.stopReason === 'aborted') return exitCodeFor('aborted');
    }
    return worst;
  } finally {
    await page.close();
  }
}

function showEvent(event: AgentEvent, theme: Theme, out: (line: string) => void): void {
  if (!SHOWN.has(event.type)) return;
  const line = describeEvent(event, { width: 90 });
  if (line) out(`${event.type === 'tool_call_end' ? '     ' : '   '}${paintLine(line, theme)}`);
}
