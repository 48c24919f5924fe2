// The prose of every configuration key, keyed by its dotted path in
// CONFIG_SCHEMA (./schema.ts): a description and an example value as a TOML
// literal. scripts/gen-config-docs.ts renders docs/configuration.md from the
// schema, the defaults and these; test/docs/configuration.test.ts fails when
// a schema key has no entry here or an entry names no key. Only the docs
// generator and its tests load this module.

import {PROVIDER_NAMES, PROVIDERS, type ProviderName, type ProviderSpec} from './providers.js'

export interface KeyDoc {
  description: string
  /** The value part of `key = VALUE` (TOML), shown under its table header. */
  example: string
}

/** Placeholder segment for the keys of each map, and the name its examples use. */
export const PLACEHOLDERS: Record<string, {segment: string; example: string}> = {
  'conversation.tools': {segment: '<tool>', example: 'greet'},
  'conversation.tools.<tool>.parameters': {segment: '<arg>', example: 'name'},
  'mcp.servers': {segment: '<server>', example: 'everything'},
}

/** The docs of one `providers.llm.NAME` table, from its row in PROVIDERS. */
const provider = (name: ProviderName): Record<string, KeyDoc> => {
  const spec: ProviderSpec = PROVIDERS[name]
  const form = spec.baseUrlEnvForm === 'host' ? ' (a host as its own clients take it: `HOST`, `HOST:PORT` or a URL; http and the default port unless given)' : ''
  const about = spec.baseUrlEnv === undefined ? spec.about : `${spec.about}; \`${spec.baseUrlEnv}\`${form} replaces the default base URL`
  return {
    [`providers.llm.${name}`]: {description: `The ${name} provider (${about}).`, example: '{}'},
    [`providers.llm.${name}.base_url`]: {
      description: `Where ${name} requests go (a proxy, a self-hosted gateway, another port).`,
      example: JSON.stringify(spec.exampleBaseUrl),
    },
    [`providers.llm.${name}.api_key_env`]: {
      description:
        'The name of the environment variable that holds the API key (the key itself is never read from a config file). ' +
        'A model of this provider fails before any request when the variable is unset, naming it.' +
        (spec.apiKeyEnv === undefined ? ' Unset by default: this provider needs no key.' : ''),
      example: `"MY_${name.toUpperCase()}_KEY"`,
    },
  }
}

export const KEY_DOCS: Record<string, KeyDoc> = {
  assistant: {description: 'The model and how it is asked.', example: '{}'},
  'assistant.model': {description: 'Which model answers.', example: '{}'},
  'assistant.model.id': {
    description:
      `\`PROVIDER/MODEL\`: ${PROVIDER_NAMES.map((name) => `\`${name}/${(PROVIDERS[name] as ProviderSpec).modelForm ?? '…'}\``).join(', ')}, or the built-in offline \`echo/default\`. ` +
      'Unset everywhere: jp uses `echo/default` and says so on stderr. `jp query -m` overrides it for one query.',
    example: '"anthropic/claude-sonnet-4-5"',
  },
  'assistant.model.parameters': {description: 'Request parameters passed to the provider.', example: '{}'},
  'assistant.model.parameters.reasoning': {
    description:
      'Extended thinking / reasoning effort: `true`, `false`, `"minimal"`, `"low"`, `"medium"`, `"high"`, or (Anthropic only) a thinking budget in tokens such as `"4096"` (at least 1024). ' +
      'Sent as Anthropic `thinking.budget_tokens`, OpenAI-format `reasoning_effort`, Ollama `think` (which has no `"minimal"`). ' +
      'A value the provider has no place for stops the query before any request, naming this key.',
    example: '"medium"',
  },
  'assistant.model.parameters.max_tokens': {
    description:
      'Upper bound on the tokens of one answer (a positive whole number). Sent as Anthropic `max_tokens`, OpenAI `max_completion_tokens`, ' +
      '`max_tokens` on the other OpenAI-format servers, Ollama `options.num_predict`.',
    example: '4096',
  },
  'assistant.model.parameters.temperature': {
    description:
      'Sampling temperature. Sent as `temperature` (Ollama: `options.temperature`). Anthropic takes 0–1 and only 1 while `reasoning` is on; ' +
      'the OpenAI format takes 0–2. A value out of range stops the query before any request, naming this key.',
    example: '0.2',
  },
  'assistant.system_prompt': {description: 'A system prompt sent with every request.', example: '"You are a terse senior engineer."'},

  providers: {description: 'Provider endpoints and key variables. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).', example: '{}'},
  'providers.llm': {description: 'One table per LLM provider.', example: '{}'},
  ...Object.assign({}, ...PROVIDER_NAMES.map(provider)),
  'providers.llm.timeout_secs': {
    description:
      'How many seconds a model request may go without a sign of life: connecting and waiting for the response headers, then each silence ' +
      'between pieces of the answer (servers send pings while thinking), and the time spent waiting between two complete events (a server trickling bytes that never finish an event). ' +
      'Then the request fails (and is retried when nothing arrived yet). ' +
      'Unset: 300. The environment variable `JP_STREAM_IDLE_TIMEOUT_SECS` overrides it.',
    example: '120',
  },

  editor: {description: 'The editor service: which editor jp runs and the inline reply widget. See docs/editors.md.', example: '{}'},
  'editor.cmd': {
    description:
      'The editor command. A string is split like POSIX `sh` words (quotes, backslashes) and run without a shell; ' +
      'the table form is `{program, args, shell}`. The edited paths are always appended last. Unset or blank: `editor.envs` is consulted. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).',
    example: '"code --wait"',
  },
  'editor.cmd.program': {
    description: 'Table form: the program (with `shell = true`, shell text run by `/bin/sh -c`).',
    example: '{program = "nvim"}',
  },
  'editor.cmd.args': {description: 'Table form: arguments placed before the paths.', example: '{program = "code", args = ["--wait", "--new-window"]}'},
  'editor.cmd.shell': {
    description:
      'Table form: run `program` through `/bin/sh -c` with the paths passed as `"$@"` (never spliced into the text). Ignored with a warning on Windows.',
    example: '{program = "emacsclient -t -a \'\'", shell = true}',
  },
  'editor.envs': {
    description:
      'Environment variables consulted in order when `editor.cmd` is unset: the first whose value splits cleanly and whose program exists is used; others are skipped with a one-line notice. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).',
    example: '["VISUAL", "EDITOR"]',
  },
  'editor.backend': {
    description: 'The registered editor backend (`terminal` is built in; plugins add more, see docs/plugins.md). An unknown name is an error listing the registered ones. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).',
    example: '"record"',
  },
  'editor.inline': {description: 'The inline reply widget.', example: '{}'},
  'editor.inline.edit_mode': {description: 'Key bindings of the inline widget: `"emacs"` or `"vi"`. See docs/reply-flow.md.', example: '"vi"'},
  'editor.inline.complete_mentions': {
    description:
      'When the list of workspace files for an `@` mention opens: `"tab"` on Tab (the `complete` action) after `@`, `"auto"` also after two typed characters of a mention. A mention (`@PATH`, `@"PATH WITH SPACES"`) attaches the file when the text is sent, as `-a` does.',
    example: '"auto"',
  },
  'editor.inline.keys': {
    description:
      'Your own key bindings for the inline widget, one table per keymap, merged over the built-in tables (see [Key bindings](#key-bindings): the key spec grammar, every action, the defaults). ' +
      'A bad key spec, an unknown action or a key that shadows a longer sequence stops jp with the file, line and key. An untrusted workspace may set these: they run nothing (docs/trust.md).',
    example: '{}',
  },
  'editor.inline.keys.emacs': {
    description: 'Bindings of emacs mode (`edit_mode = "emacs"`).',
    example: '{"ctrl-z" = "none", "ctrl-x ctrl-e" = "open_editor", "alt-enter" = "submit", "enter" = "newline"}',
  },
  'editor.inline.keys.vi_insert': {
    description: "Bindings of vi's insert mode (`edit_mode = \"vi\"`); its defaults are the emacs ones plus Esc to normal mode. Your emacs table does not apply here.",
    example: '{"enter" = "newline", "alt-enter" = "submit", "j j" = "vi_normal_mode"}',
  },
  'editor.inline.keys.vi_normal': {
    description: "Bindings of vi's normal mode: single keys (`x`, `A`) and two-key sequences (`d w`, `g g`).",
    example: '{"enter" = "newline", "g g" = "move_buffer_start", "G" = "move_buffer_end"}',
  },

  interrupt: {description: 'What Ctrl+C does while an answer streams or a tool runs. See docs/reply-flow.md.', example: '{}'},
  'interrupt.escalation_cooldown_secs': {
    description: 'A second Ctrl+C within this many seconds of the first starts a graceful shutdown instead of opening the menu again.',
    example: '1.5',
  },
  'interrupt.queue_countdown_secs': {
    description:
      'When a turn ends with a queued reply (`q` in a menu, or typed while jp works), jp counts down this many seconds on the status line (Enter sends at once, Ctrl+C keeps the reply as the draft and exits), then sends it as the next turn. `0` sends it at once.',
    example: '10',
  },
  'interrupt.queue_delivery': {
    description:
      '`next_step`: a reply queued while the model works a tool loop is sent with the next request, after the tool results (never while a tool prompt is open); an answer without tool calls sends it after the turn, with the countdown. `turn_end`: always after the turn.',
    example: '"turn_end"',
  },
  'interrupt.type_to_queue': {
    description:
      'On a terminal, a printable key typed while jp waits for the model, streams an answer or runs a tool opens the `Queue:` prompt at the bottom, seeded with that key, while the answer keeps printing above it; Enter queues the reply. `false`: typed keys are ignored (never echoed).',
    example: 'false',
  },
  'interrupt.streaming': {description: 'Ctrl+C while the assistant streams.', example: '{}'},
  'interrupt.streaming.action': {
    description:
      '`prompt` shows the menu; the others skip it: `continue` (resume, or continue if the stream ended), `stop` (save & exit), `abort` (discard & exit), `reply` (ask for a reply at once; empty or cancelled resumes).',
    example: '"reply"',
  },
  'interrupt.streaming.compose_in_editor': {
    description:
      'Where the reply is written: `false` inline widget (Ctrl+X opens the editor), `"never"` inline only, `true` editor first (inline widget if it cannot open), `"always"` editor only (back to the menu if it cannot open).',
    example: 'true',
  },
  'interrupt.tool_call': {description: 'Ctrl+C while a tool runs.', example: '{}'},
  'interrupt.tool_call.action': {
    description:
      '`prompt` shows the menu; the others skip it: `continue` (keep waiting), `restart` (kill and run again), `stop` (cancel the tool, end the turn), `respond` (kill it and ask for the text to send as its result; empty or cancelled sends `cancellation_response`).',
    example: '"respond"',
  },
  'interrupt.tool_call.compose_in_editor': {description: 'As `interrupt.streaming.compose_in_editor`, for the tool menu\'s reply.', example: '"never"'},

  query: {description: 'Composing a query when `jp query` is run on a terminal with no query (or with `-e`).', example: '{}'},
  style: {description: 'How assistant text looks on a terminal.', example: '{}'},
  'style.markdown': {
    description:
      'Render the model\'s markdown (headings, emphasis, lists, tables fitted to the width, highlighted code, links) when stdout is a terminal and the format is text; reasoning is rendered dimmed. `false` prints the text as the model wrote it. Piped or redirected output, `--format json`, stored conversations and editors always get the raw markdown. `NO_COLOR` keeps the layout without colour; `TERM=dumb` prints the raw text.',
    example: 'false',
  },
  'style.hyperlinks': {
    description: 'Make link text an OSC 8 hyperlink (the URL is still shown after it). Off by default: some terminals print the sequence literally.',
    example: 'true',
  },
  'style.code_theme': {
    description: 'Colours of highlighted code: `"ansi"` the terminal\'s own 16 colours (follows its palette), `"dark"` or `"light"` 256 colours for that background, `"mono"` no colour (keywords bold, comments italic).',
    example: '"dark"',
  },
  'query.compose_in_editor': {
    description:
      'Where the query is written: `false` the inline prompt (Ctrl+X opens the full `QUERY_MESSAGE.md` document in your editor, seeded with the buffer), `true` the editor first (the inline prompt if it cannot open), `"always"` the editor only (an error if it cannot open), `"never"` the inline prompt only (Ctrl+X unbound). `-e` prefers the editor for one query. No effect without a terminal. See docs/reply-flow.md.',
    example: 'true',
  },
  'query.attach_max_bytes': {
    description:
      'The largest file `jp query -a PATH` attaches, in bytes (default 1 MiB). A larger file stops the query before any request or editor, naming it.',
    example: '4194304',
  },

  conversation: {description: 'Conversation settings.', example: '{}'},
  'conversation.tools': {
    description: "Local tools, one table per tool name. The table `'*'` holds defaults every tool inherits (`run`, `result`, `cancellation_response`). See docs/tools.md. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).",
    example: '{}',
  },
  'conversation.tools.<tool>': {description: 'One tool (or `\'*\'`, the defaults of every tool).', example: '{}'},
  'conversation.tools.<tool>.source': {description: 'Where the tool comes from; `"local"` (a program run by jp) is the only source.', example: '"local"'},
  'conversation.tools.<tool>.command': {
    description:
      'The program to run: a string (split like `sh` words, no shell) or `{program, args, shell}`. Arguments arrive as JSON on stdin and in the file `JP_TOOL_ARGUMENTS_FILE` names (never in argv or the environment); cwd is the workspace root.',
    example: '"./tools/greet.sh"',
  },
  'conversation.tools.<tool>.command.program': {description: 'Table form: the program (shell text with `shell = true`).', example: '{program = "python3"}'},
  'conversation.tools.<tool>.command.args': {description: 'Table form: fixed arguments.', example: '{program = "python3", args = ["tools/greet.py"]}'},
  'conversation.tools.<tool>.command.shell': {description: 'Table form: run `program` through `/bin/sh -c`.', example: '{program = "git log --oneline | head -20", shell = true}'},
  'conversation.tools.<tool>.summary': {description: 'What the tool does; sent to the model as its description.', example: '"Greets someone by name"'},
  'conversation.tools.<tool>.run': {
    description: 'Permission to run: `ask` (the y/Y/n/N/p/r/e menu), `unattended` (run), `edit` (edit the arguments first), `skip` (never run).',
    example: '"unattended"',
  },
  'conversation.tools.<tool>.result': {
    description: 'The result: `unattended` (deliver), `ask` (confirm y/n/e), `edit` (edit first), `skip` (never deliver).',
    example: '"ask"',
  },
  'conversation.tools.<tool>.cancellation_response': {
    description: 'What the model is told when the user skips or cancels the call without a message.',
    example: '"The user declined; continue without it."',
  },
  'conversation.tools.<tool>.enable': {
    description: 'Offer the tool to the model in every query (`false`: only with `jp query --tool NAME`). Unset means enabled.',
    example: 'false',
  },
  'conversation.tools.<tool>.env': {
    description:
      "Which of jp's environment variables the tool gets. By default all of them except secrets: every provider's `api_key_env` and names matching `*KEY*`, `*SECRET*`, `*TOKEN*`, `*PASSWORD*`, `*PASSPHRASE*`, `*CREDENTIAL*`, `*_AUTH*`, `SSH_AUTH_SOCK`, `GPG_AGENT_INFO`, `KUBECONFIG` and `AWS_*` but the region and profile (case-insensitive), and any value that is a URL with a password (`scheme://user:pass@`). Fields set here replace the same fields of `'*'`. See docs/tools.md.",
    example: '{inherit = "core", keep = ["GITHUB_TOKEN"]}',
  },
  'conversation.tools.<tool>.env.inherit': {
    description: '`"all"` (default) of jp\'s environment, `"core"` (HOME, LOGNAME, PATH, SHELL, USER, USERNAME, TMPDIR, TEMP, TMP, LANG, LC_*, TERM, TZ) or `"none"`; the secrets are dropped in every case.',
    example: '"core"',
  },
  'conversation.tools.<tool>.env.keep': {
    description: 'Variables (names or globs, `*` and `?`, case-insensitive) passed from jp\'s environment even when `inherit` or the secret rule would leave them out.',
    example: '["GITHUB_TOKEN", "AWS_*"]',
  },
  'conversation.tools.<tool>.env.drop': {description: 'Variables (names or globs) never passed; `drop` wins over `keep`.', example: '["DATABASE_URL"]'},
  'conversation.tools.<tool>.parameters': {description: 'The tool\'s arguments, one table per argument; sent to the model as a JSON schema.', example: '{}'},
  'conversation.tools.<tool>.parameters.<arg>': {description: 'One argument.', example: '{type = "string"}'},
  'conversation.tools.<tool>.parameters.<arg>.type': {description: 'Its JSON-schema type: `string`, `number`, `integer`, `boolean`, `array`, `object`.', example: '"string"'},
  'conversation.tools.<tool>.parameters.<arg>.description': {description: 'What the argument means (for the model).', example: '"who to greet"'},
  'conversation.tools.<tool>.parameters.<arg>.required': {description: 'The model must always pass it.', example: 'true'},
  'conversation.tools.<tool>.parameters.<arg>.enum': {description: 'The allowed values.', example: '["formal", "casual"]'},
  'conversation.tools.<tool>.parameters.<arg>.items': {description: 'For `type = "array"`: the JSON schema of the items.', example: '{type = "string"}'},

  mcp: {description: 'MCP servers whose tools the model may call (docs/tools.md, "MCP servers").', example: '{}'},
  'mcp.servers': {
    description:
      "One table per server. Its tools are named `SERVER.TOOL` and take every tool setting of `conversation.tools` (`\"SERVER.TOOL\"`, or `\"SERVER.*\"` for all of them: `enable`, `run`, `result`, `env`, `cancellation_response`) and `-t`/`-T`. Servers start when a query first needs its tools, in parallel, never before the prompt. An untrusted workspace cannot set this (ignored with a notice; see docs/trust.md).",
    example: '{}',
  },
  'mcp.servers.<server>': {
    description: 'One server: `command` (stdio) or `url` (Streamable HTTP), exactly one of them. The name (letters, digits, `_`, `-`) is the first half of its tools\' names.',
    example: '{command = "npx", args = ["-y", "@modelcontextprotocol/server-everything"]}',
  },
  'mcp.servers.<server>.command': {
    description: "stdio: the program jp starts (looked up in `PATH`, no shell). Its stderr goes to `<user data dir>/logs/mcp/SERVER.log`, never the terminal.",
    example: '"mcp-server-everything"',
  },
  'mcp.servers.<server>.args': {description: 'stdio: the program\'s arguments.', example: '["stdio"]'},
  'mcp.servers.<server>.env': {
    description:
      "stdio: variables set for the server, over the environment its tools' `env` policy gives it (`conversation.tools.\"SERVER.*\".env`, then `'*'`: secrets dropped unless kept by name). A value `\"$VAR\"` is jp's own variable VAR, so a secret need not be written in a file.",
    example: '{GITHUB_TOKEN = "$GITHUB_TOKEN"}',
  },
  'mcp.servers.<server>.cwd': {description: 'stdio: the working directory (default: the workspace root; relative to it).', example: '"tools"'},
  'mcp.servers.<server>.url': {description: 'Streamable HTTP: the endpoint.', example: '"http://127.0.0.1:3001/mcp"'},
  'mcp.servers.<server>.headers': {
    description: 'Streamable HTTP: headers sent with every request. A value `"$VAR"` (or `"Bearer $VAR"`) takes jp\'s variable VAR; header values are shown redacted wherever jp prints them.',
    example: '{Authorization = "Bearer $MCP_TOKEN"}',
  },
  'mcp.servers.<server>.enable': {
    description: 'Start the server and offer its tools (`false`: only when `jp query -t SERVER.TOOL` or `-t "SERVER.*"` names them).',
    example: 'false',
  },
  'mcp.servers.<server>.timeout_secs': {
    description:
      'How long the server may take to start and list its tools (it is left out of that turn with one notice otherwise), and how long one tool call may run before it is cancelled (`notifications/cancelled`).',
    example: '60',
  },
}
