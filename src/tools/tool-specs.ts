// Written by scripts/tool-specs.mjs (`npm run tool-specs`) from the tools themselves; test/tool-specs.test.ts fails when it is stale.
import type { ToolSpec } from './deferred-tool.js';

export const TOOL_SPECS: Readonly<Record<string, ToolSpec>> = {
  "read_file": {
    "name": "read_file",
    "description": "Read a UTF-8 text file as lines numbered like cat -n: up to limit (default 2000) lines from offset (1-based, default 1); lines over 2000 characters are cut. A footer gives size, total lines and the offset to read next. A PNG, JPEG, GIF or WebP comes back as an image. Refuses other binaries and directories.",
    "parameters": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string",
          "minLength": 1
        },
        "offset": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000000
        },
        "limit": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000000000
        }
      },
      "required": [
        "path"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "aliases": [
      "read"
    ],
    "subject": true
  },
  "write_file": {
    "name": "write_file",
    "description": "Create a file or overwrite it entirely with content, creating parent folders. An existing file must have been read first. Reports new or overwritten, with line counts. To change part of a file, use edit_file.",
    "parameters": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string",
          "minLength": 1
        },
        "content": {
          "type": "string"
        }
      },
      "required": [
        "path",
        "content"
      ]
    },
    "readOnly": false,
    "needsApproval": true,
    "category": "edit",
    "aliases": [
      "edit",
      "write"
    ],
    "subject": true
  },
  "edit_file": {
    "name": "edit_file",
    "description": "Replace old_string with new_string in a file. old_string must match exactly one place (copy it from read_file output without line numbers; add surrounding lines to make it unique), or set replace_all. Returns a unified diff; on a miss, the closest lines.",
    "parameters": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string",
          "minLength": 1
        },
        "old_string": {
          "type": "string"
        },
        "new_string": {
          "type": "string"
        },
        "replace_all": {
          "type": "boolean"
        }
      },
      "required": [
        "path",
        "old_string",
        "new_string"
      ]
    },
    "readOnly": false,
    "needsApproval": true,
    "category": "edit",
    "aliases": [
      "edit"
    ],
    "subject": true
  },
  "list_files": {
    "name": "list_files",
    "description": "List files matching a glob, sorted, paths relative to the workspace. Honours .gitignore; skips node_modules and .git. A glob without \"/\" matches names at any depth (\"*.ts\"). At most 1000 paths; says when more matched.",
    "parameters": {
      "type": "object",
      "properties": {
        "pattern": {
          "description": "Default \"**/*\".",
          "type": "string",
          "minLength": 1
        },
        "path": {
          "description": "Directory; default the workspace.",
          "type": "string",
          "minLength": 1
        }
      }
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": true
  },
  "grep": {
    "name": "grep",
    "description": "Search file contents by regular expression (no lookaround or backreferences). Output `path:line:column: text` per matching line, `path-line- text` for context, sorted. Honours .gitignore; skips binary files. At most max_results (default 200) lines; says when more exist.",
    "parameters": {
      "type": "object",
      "properties": {
        "pattern": {
          "type": "string",
          "minLength": 1
        },
        "path": {
          "description": "File or directory; default the workspace.",
          "type": "string",
          "minLength": 1
        },
        "glob": {
          "description": "File filter, e.g. \"*.ts\".",
          "type": "string",
          "minLength": 1
        },
        "ignore_case": {
          "type": "boolean"
        },
        "context": {
          "description": "Lines before and after.",
          "type": "integer",
          "minimum": 0,
          "maximum": 10
        },
        "max_results": {
          "type": "integer",
          "exclusiveMinimum": 0,
          "maximum": 1000
        }
      },
      "required": [
        "pattern"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": true
  },
  "bash": {
    "name": "bash",
    "description": "Run a shell command (bash -c) in the workspace. No interactive input. Returns stdout and stderr interleaved, capped head+tail, then the exit code (omitted when 0 with output). Time-out 120000 ms by default, max 600000; kills the whole tree. run_in_background: returns an id at once (read with bash_output, stop with bash_kill); use it for servers and watchers.",
    "parameters": {
      "type": "object",
      "properties": {
        "command": {
          "type": "string",
          "minLength": 1
        },
        "timeout_ms": {
          "type": "integer",
          "exclusiveMinimum": 0,
          "maximum": 600000
        },
        "run_in_background": {
          "type": "boolean"
        }
      },
      "required": [
        "command"
      ]
    },
    "readOnly": false,
    "needsApproval": true,
    "timeoutMs": 610000,
    "category": "execute",
    "aliases": [
      "shell"
    ],
    "subject": true
  },
  "bash_output": {
    "name": "bash_output",
    "description": "Read a background shell job (bash with run_in_background): the output it wrote since the last read (capped; call again for more), and whether it is still running or its exit code.",
    "parameters": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string",
          "minLength": 1
        }
      },
      "required": [
        "id"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": false
  },
  "bash_kill": {
    "name": "bash_kill",
    "description": "Stop a background shell job and every process it started (SIGTERM, then SIGKILL).",
    "parameters": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string",
          "minLength": 1
        }
      },
      "required": [
        "id"
      ]
    },
    "readOnly": false,
    "needsApproval": false,
    "category": "read",
    "subject": false
  },
  "remember": {
    "name": "remember",
    "description": "Save a short durable fact for future sessions (how to run the tests, a user preference). scope \"project\" (default): this workspace; \"user\": every project. Never secrets.",
    "parameters": {
      "type": "object",
      "properties": {
        "fact": {
          "type": "string"
        },
        "scope": {
          "default": "project",
          "type": "string",
          "enum": [
            "project",
            "user"
          ]
        }
      },
      "required": [
        "fact"
      ]
    },
    "readOnly": false,
    "needsApproval": true,
    "category": "edit",
    "subject": false
  },
  "todo_write": {
    "name": "todo_write",
    "description": "Replace your checklist for this task (send the whole list). Use it for work of three or more steps: mark one item in_progress while you work on it and completed as soon as it is done. The user sees the list.",
    "parameters": {
      "type": "object",
      "properties": {
        "todos": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "content": {
                "type": "string",
                "minLength": 1,
                "description": "What to do, in a short imperative line."
              },
              "status": {
                "type": "string",
                "enum": [
                  "pending",
                  "in_progress",
                  "completed"
                ]
              }
            },
            "required": [
              "content",
              "status"
            ]
          },
          "description": "The whole list, replacing the previous one."
        }
      },
      "required": [
        "todos"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": false
  },
  "todo_read": {
    "name": "todo_read",
    "description": "Your checklist for this task, as you last wrote it.",
    "parameters": {
      "type": "object",
      "properties": {}
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": false
  },
  "current_time": {
    "name": "current_time",
    "description": "Get the current date and time (ISO 8601 with UTC offset). Optional IANA timezone, e.g. \"Asia/Shanghai\"; default is the local zone.",
    "parameters": {
      "type": "object",
      "properties": {
        "timezone": {
          "description": "IANA time zone name",
          "type": "string"
        }
      }
    },
    "readOnly": true,
    "needsApproval": false,
    "timeoutMs": 5000,
    "category": "read",
    "subject": false
  },
  "calculator": {
    "name": "calculator",
    "description": "Evaluate an arithmetic expression exactly: + - * / % ^, parentheses, decimals, sqrt, abs, ln, log, exp, sin, cos, tan, floor, ceil, round, min, max, pi, e.",
    "parameters": {
      "type": "object",
      "properties": {
        "expression": {
          "type": "string",
          "description": "e.g. \"17 * 23\" or \"(2^10 - 24) / 7\""
        }
      },
      "required": [
        "expression"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "timeoutMs": 5000,
    "category": "read",
    "subject": false
  },
  "fetch_url": {
    "name": "fetch_url",
    "description": "HTTP GET a URL (http/https). Returns status, content type, the text length in characters, and the text (capped).",
    "parameters": {
      "type": "object",
      "properties": {
        "url": {
          "type": "string",
          "description": "absolute http(s) URL"
        }
      },
      "required": [
        "url"
      ]
    },
    "readOnly": true,
    "needsApproval": true,
    "timeoutMs": 20000,
    "category": "network",
    "aliases": [
      "fetch"
    ],
    "subject": true
  },
  "skill": {
    "name": "skill",
    "description": "Load a skill by name (the skills are listed in the system prompt): returns its instructions and the paths of its bundled files, which read_file can then read.",
    "parameters": {
      "type": "object",
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1
        }
      },
      "required": [
        "name"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": true
  },
  "read_output": {
    "name": "read_output",
    "description": "Read part of a tool output shortened in the conversation, by the out_… id its note gives.",
    "parameters": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string",
          "pattern": "^out_[0-9a-f]{12}$"
        },
        "offset": {
          "description": "first character to return (default 0)",
          "type": "integer",
          "minimum": 0
        },
        "limit": {
          "description": "characters to return (default and maximum 8000)",
          "type": "integer",
          "minimum": 1
        }
      },
      "required": [
        "id"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "timeoutMs": 10000,
    "category": "read",
    "subject": false
  },
  "code_nav": {
    "name": "code_nav",
    "description": "Ask the project's language server. definition, references, hover (type, docs), implementations, incoming_calls, outgoing_calls: give path and symbol (a name in that file; line picks an occurrence). symbols: path for a file's outline, or query to search the workspace. rename: path, symbol, new_name; edits every file or none. Places come as path:line:col: text.",
    "parameters": {
      "type": "object",
      "properties": {
        "operation": {
          "type": "string",
          "enum": [
            "definition",
            "references",
            "hover",
            "symbols",
            "implementations",
            "incoming_calls",
            "outgoing_calls",
            "rename"
          ]
        },
        "path": {
          "type": "string",
          "minLength": 1
        },
        "symbol": {
          "type": "string",
          "minLength": 1
        },
        "line": {
          "type": "integer",
          "minimum": 1
        },
        "column": {
          "type": "integer",
          "minimum": 1
        },
        "query": {
          "type": "string",
          "minLength": 1
        },
        "new_name": {
          "type": "string",
          "minLength": 1
        }
      },
      "required": [
        "operation"
      ]
    },
    "readOnly": true,
    "needsApproval": false,
    "category": "read",
    "subject": true
  }
};
