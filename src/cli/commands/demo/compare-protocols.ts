import type { StopReason } from '../../../contracts/events.js';
import type { RunResult } from '../../../core/loop.js';
import type { ToolProtocol } from '../../../providers/with-protocol.js';
import type { CliArgs } from '../../args/cli-args.js';
import { serveDemoPage } from './demo-page.js';
import { demoTasks } from './demo-tasks.js';
import { exitCodeFor } from '../../settings/exit-codes.js';
import { demoModel, runDemoTask, type DemoModel } from './run-demo-task.js';
import { oneLine } from '../../display/summarize.js';
import { safeStdout, safeStderr } from '../../display/safe-output.js';

export interface ProtocolRun {
  turns: number;
  /** Replies that could not be read (always 0 with native tool calls). */
  parseFailures: number;
  toolCalls: number;
  answer: string | null;
  stopReason: StopReason;
}

export interface ComparisonRow {
  task: string;
  native: ProtocolRun;
  promptJson: ProtocolRun;
}

const ANSWER_WIDTH = 44;

/**
 * The article's comparison, measured: the course's four tasks with native tool calls and with
 * the prompt-JSON protocol, on the same model (or on the scripted model, offline).
 */
export async function compareProtocolsCommand(args: CliArgs, signal: AbortSignal): Promise<number> {
  const out = (line: string) => safeStdout.write(`${line}\n`);
  const real = await demoModel(args);
  const page = await serveDemoPage();
  try {
    if (!args.json) {
      out('Vibe Agent: native tool calls vs the prompt-JSON protocol, on the course\'s four tasks');
      out(
        real
          ? `Model: ${real.model} via ${real.provider.name} (measured: each task runs once per protocol)`
          : 'Model: built-in SCRIPTED model (offline). Its replies are scripted, with deliberate malformed ones,\n' +
              'so this shows the mechanics, not a model\'s reliability. Configure a model (OPENAI_API_KEY and VIBE_MODEL,\n' +
              'or --provider/--model) to measure a real one.',
      );
      out('');
    }
    const rows: ComparisonRow[] = [];
    for (const [index, task] of demoTasks(page.url).entries()) {
      if (!args.json) safeStderr.write(`running ${index + 1}/4: ${task.title}\n`);
      const runOne = async (protocol: ToolProtocol) => summarize(await runDemoTask(task, { protocol, real, pageUrl: page.url, signal }));
      const row: ComparisonRow = { task: task.title, native: await runOne('native'), promptJson: await runOne('prompt-json') };
      rows.push(row);
      if (args.json) out(JSON.stringify(row));
      if (row.native.stopReason === 'aborted' || row.promptJson.stopReason === 'aborted') return exitCodeFor('aborted');
    }
    if (!args.json) out(formatComparison(rows, real));
    const failed = rows.some((row) => row.native.stopReason === 'provider_error' || row.promptJson.stopReason === 'provider_error');
    return failed ? exitCodeFor('provider_error') : 0;
  } finally {
    await page.close();
  }
}

function summarize(result: RunResult): ProtocolRun {
  const toolCalls = result.messages.reduce((sum, message) => sum + (message.role === 'assistant' ? message.toolCalls.length : 0), 0);
  return { turns: result.turns, parseFailures: result.protocolErrors ?? 0, toolCalls, answer: result.answer, stopReason: result.stopReason };
}

/** A Markdown table: readable in a terminal, and pastes into an issue or the README as it is. */
export function formatComparison(rows: ComparisonRow[], real?: DemoModel): string {
  const cell = (run: ProtocolRun) => oneLine(run.answer ?? `(no answer: ${run.stopReason})`, ANSWER_WIDTH).replace(/\|/g, '\\|');
  const lines = [
    '| task | turns native | turns prompt-json | parse failures | answer (native) | answer (prompt-json) |',
    '|---|---:|---:|---:|---|---|',
    ...rows.map((row) => `| ${row.task} | ${row.native.turns} | ${row.promptJson.turns} | ${row.promptJson.parseFailures} | ${cell(row.native)} | ${cell(row.promptJson)} |`),
  ];
  const sum = (pick: (row: ComparisonRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  lines.push(`| **total** | ${sum((r) => r.native.turns)} | ${sum((r) => r.promptJson.turns)} | ${sum((r) => r.promptJson.parseFailures)} | | |`);
  lines.push('', `${real ? real.model : 'scripted model'}: turns are loop rounds; a parse failure is a reply the prompt-JSON parser could not read (each costs one more request within its turn).`);
  return lines.join('\n');
}
