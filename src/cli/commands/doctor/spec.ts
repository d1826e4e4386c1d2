import { defineCommand } from '../../args/command-spec.js';

export const doctorSpec = defineCommand({
  name: 'doctor',
  summary: 'probe the configured endpoint and this machine; a table and a recommendation',
  usage: ['doctor [--provider NAME] [--base-url URL] [--model NAME] [--json]'],
  details: ['It probes what a run would use: the settings flags (--provider, --base-url, --model, …) choose the endpoint.'],
  flags: [],
  run: async (args, signal) => (await import('./doctor-command.js')).doctorCommand(args, signal),
});
