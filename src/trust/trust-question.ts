import { visibleValue } from '../contracts/visible-text.js';

/** One thing an approval lets run or leave the machine, e.g. `env NODE_OPTIONS` = `--require ./x.cjs`. */
export interface TrustFact {
  label: string;
  value: string;
  /** Why this one deserves a second look (it changes what runs, it sends a key). */
  warning?: string;
}

/**
 * "Trust this project's X?", as data: every trust question is built by serverQuestion,
 * hooksQuestion or landChecksQuestion and reaches a person only through renderTrustQuestion.
 */
export interface TrustQuestion {
  /** What approving does: `Start the MCP server "docs" from /ws/.mcp.json (project)?` */
  heading: string;
  facts: TrustFact[];
}

/** Asks the user one trust question; true when they approve. */
export type AskTrust = (question: TrustQuestion) => Promise<boolean>;

/**
 * The question as lines for a terminal. Every piece (heading, labels, values, which the
 * repository wrote) is made visible on its own line: an escape sequence, carriage return,
 * newline, bidi override or zero-width character is written out, never passed to the terminal.
 */
export function renderTrustQuestion(question: TrustQuestion): string[] {
  return [
    visibleValue(question.heading),
    ...question.facts.map((fact) => `  ${visibleValue(fact.label)}: ${visibleValue(fact.value)}${fact.warning ? `   ⚠ ${visibleValue(fact.warning)}` : ''}`),
  ];
}
