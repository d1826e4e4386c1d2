/** `vibe-agent mcp --help`: every `mcp` sub-command and its flags. */
export const MCP_USAGE = `Usage:
  vibe-agent mcp list                     start every configured server and show its state and tools
  vibe-agent mcp get NAME                 show one server: its entry (secrets masked), file, trust
  vibe-agent mcp add [options] NAME -- COMMAND [ARGS...]      a stdio server
  vibe-agent mcp add [options] --transport http|sse NAME URL  a remote server
  vibe-agent mcp add-json [options] NAME JSON                 an entry in .mcp.json's shape
  vibe-agent mcp remove NAME [--scope user|project]
  vibe-agent mcp serve [--http [HOST:]PORT]                   serve this agent's tools over MCP

Options of add and add-json:
  -s, --scope user|project    user: your config, every workspace (default); project: the
                              workspace's .mcp.json (shared, as Claude Code writes it)
  -t, --transport stdio|http|sse   default: http for a URL, else stdio
  -e, --env KEY=value         an environment variable of a stdio server (repeatable)
  -H, --header "Name: value"  a header of a remote server (repeatable)
  --force                     replace a server of that name in the same file
  --no-verify                 write without starting the server first
  --cwd DIR                   the workspace (default: the current directory)

add starts the server and lists its tools before writing; a server that does not start is
reported (exit 1) and nothing is written. Write a secret as \${VAR}: '-e TOKEN=\${TOKEN}'.`;
