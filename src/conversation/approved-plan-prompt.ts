/** The prompt of a run that carries out an approved plan. */
export function promptWithPlan(prompt: string, plan: string): string {
  return `${prompt}\n\nCarry out this approved plan. A write or command it does not list needs the user's approval again.\n\n<plan>\n${plan.trim()}\n</plan>`;
}
