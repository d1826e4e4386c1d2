// A real MCP server (the SDK's server side, over stdio) with 40 similar tools, for the tool-search
// tests, bench and eval: `--domain crm|billing|calendar|tickets|inventory` picks its eight
// entities; each gets create, get, list, update and delete, with realistic descriptions and
// argument schemas. A call answers `<domain>.<tool> <arguments as JSON>`. `--always-load TOOL`
// marks one tool `_meta: {"vibe-agent/alwaysLoad": true}`. `--log-calls` appends each call, as
// `<domain>.<tool> <arguments>`, to mcp-calls.log in its working directory (the eval's checks read it).
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export const DOMAINS = {
  crm: { system: 'the CRM', entities: ['contact', 'company', 'deal', 'lead', 'note', 'task', 'pipeline', 'activity'] },
  billing: { system: 'the billing system', entities: ['invoice', 'payment', 'refund', 'subscription', 'coupon', 'customer', 'credit_note', 'tax_rate'] },
  calendar: { system: 'the team calendar', entities: ['event', 'calendar', 'reminder', 'attendee', 'room', 'availability', 'recurrence', 'invitation'] },
  tickets: { system: 'the support desk', entities: ['ticket', 'comment', 'assignee', 'label', 'priority', 'sla', 'macro', 'queue'] },
  inventory: { system: 'the inventory service', entities: ['product', 'warehouse', 'stock_level', 'supplier', 'purchase_order', 'shipment', 'batch', 'location'] },
};

const VERBS = {
  create: (e, s) => `Creates a new ${e} in ${s}. Give the fields the ${e} needs; the answer holds the new ${e}'s id, which later calls use. Fails when a ${e} with the same external reference already exists.`,
  get: (e, s) => `Reads one ${e} from ${s} by its id, with every field and the time it was last changed. Use list_${e}s to find an id first.`,
  list: (e, s) => `Lists the ${e}s in ${s}, newest first, twenty per page. Filter by a search text and by owner; pass the cursor of the previous page to get the next one.`,
  update: (e, s) => `Changes fields of an existing ${e} in ${s}. Only the fields given are changed; the others keep their values. The answer is the ${e} as it is now.`,
  delete: (e, s) => `Deletes a ${e} from ${s} for good. Everything that refers to the ${e} loses the reference; this cannot be undone, so confirm the id first.`,
};

const words = (entity) => entity.replace(/_/g, ' ');

/** The tools of one domain as [name, description, zod shape]: 8 entities × 5 verbs. */
export function domainTools(domain) {
  const { system, entities } = DOMAINS[domain];
  return entities.flatMap((entity) => {
    const e = words(entity);
    const fields = {
      title: z.string().describe(`A short title of the ${e}, shown in lists.`),
      owner: z.string().optional().describe(`The email of the person the ${e} belongs to.`),
      notes: z.string().optional().describe(`Free text kept with the ${e}.`),
      tags: z.array(z.string()).optional().describe(`Labels to group ${e}s by.`),
    };
    const id = { [`${entity}_id`]: z.string().describe(`The id of the ${e}, as create_${entity} or list_${entity}s gave it.`) };
    return [
      [`create_${entity}`, VERBS.create(e, system), { ...fields, external_ref: z.string().optional().describe('An id from another system, to avoid duplicates.') }],
      [`get_${entity}`, VERBS.get(e, system), id],
      [`list_${entity}s`, VERBS.list(e, system), { query: z.string().optional().describe(`Words the ${e} must contain.`), owner: z.string().optional().describe('Only those of this owner.'), cursor: z.string().optional().describe('From the previous page.') }],
      [`update_${entity}`, VERBS.update(e, system), { ...id, ...fields, title: fields.title.optional() }],
      [`delete_${entity}`, VERBS.delete(e, system), { ...id, confirm: z.boolean().describe('Must be true.') }],
    ];
  });
}

export function createManyToolsServer(domain, { alwaysLoad, logCalls = false } = {}) {
  const server = new McpServer({ name: domain, version: '1.0.0' });
  for (const [name, description, shape] of domainTools(domain)) {
    const title = `${name.replace(/_/g, ' ')} (${domain})`;
    server.registerTool(name, { title, description, inputSchema: shape, ...(name === alwaysLoad ? { _meta: { 'vibe-agent/alwaysLoad': true } } : {}) }, async (args) => {
      const line = `${domain}.${name} ${JSON.stringify(args)}`;
      if (logCalls) appendFileSync('mcp-calls.log', `${line}\n`);
      return { content: [{ type: 'text', text: line }] };
    });
  }
  return server;
}

function flag(name) {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const domain = flag('--domain') ?? 'crm';
  if (!DOMAINS[domain]) throw new Error(`unknown domain ${domain}`);
  await createManyToolsServer(domain, { alwaysLoad: flag('--always-load'), logCalls: process.argv.includes('--log-calls') }).connect(new StdioServerTransport());
}
