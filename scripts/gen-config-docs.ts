// Generates docs/configuration.md from the configuration schema (CONFIG_SCHEMA
// in src/lib/config/load.ts) and the built-in defaults, so the reference
// cannot drift from the code: `npm run docs:config` rewrites it, and
// test/docs/configuration.test.ts fails when the committed file differs or
// when a schema key has no entry in KEY_DOCS below.
//
// The schema carries types only; the prose (description and an example
// value, as a TOML literal) lives here, keyed by dotted path. Map keys (tool
// names, parameter names) appear as placeholders such as `<tool>`.
import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {stringify} from 'smol-toml'

import {defaultConfig} from '../src/lib/config/defaults.js'
import {CONFIG_SCHEMA} from '../src/lib/config/load.js'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../src/lib/config/types.js'

type Schema = typeof CONFIG_SCHEMA

export interface KeyDoc {
  description: string
  /** The value part of `key = VALUE` (TOML), shown under its table header. */
  example: string
}

/** Placeholder segment for the keys of each map, and the name its examples use. */
export const PLACEHOLDERS: Record<string, {segment: string; example: string}> = {
  'conversation.tools': {segment: '<tool>', example: 'greet'},
  'conversation.tools.<tool>.parameters': {segment: '<arg>', example: 'name'},
}

const provider = (name: string, wire: string): Record<string, KeyDoc> => ({
  [`providers.llm.${name}`]: {description: `The ${name} provider (${wire}).`, example: '{}'},
  [`providers.llm.${name}.base_url`]: {
    description: `Where ${name} requests go (a proxy, a self-hosted gateway, another port).`,
    example: name === 'ollama' ? '"http://gpu-box:11434"' : name === 'llamacpp' ? '"http://127.0.0.1:8081/v1"' : `"https://proxy.example.com/${name}"`,
  },
  [`providers.llm.${name}.api_key_env`]: {
    description:
      'The name of the environment variable that holds the API key (the key itself is never read from a config file). ' +
      'A model of this provider fails before any request when the variable is unset, naming it.' +
      (name === 'ollama' || name === 'llamacpp' ? ' Unset by default: this provider needs no key.' : ''),
    example: `"MY_${name.toUpperCase()}_KEY"`,
  },
})

export const KEY_DOCS: Record<string, KeyDoc> = {
  assistant: {description: 'The model and how it is asked.', example: '{}'},
  'assistant.model': {description: 'Which model answers.', example: '{}'},
  'assistant.model.id': {
    description:
      '`PROVIDER/MODEL`: `anthropic/…`, `openai/…`, `openrouter/VENDOR/MODEL`, `ollama/…`, `llamacpp/…`, or the built-in offline `echo/default`. ' +
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

  providers: {description: 'Provider endpoints and key variables.', example: '{}'},
  'providers.llm': {description: 'One table per LLM provider.', example: '{}'},
  ...provider('anthropic', 'Anthropic Messages API, SSE'),
  ...provider('openai', 'OpenAI Chat Completions, SSE; `OPENAI_BASE_URL` replaces the default base URL'),
  ...provider('openrouter', 'OpenAI wire format'),
  ...provider('ollama', 'native `/api/chat`, NDJSON'),
  ...provider('llamacpp', 'llama.cpp server, OpenAI wire format'),
  'providers.llm.timeout_secs': {
    description:
      'How many seconds a model request may go without a sign of life: connecting and waiting for the response headers, then each silence ' +
      'between pieces of the answer (servers send pings while thinking). Then the request fails (and is retried when nothing arrived yet). ' +
      'Unset: 300. The environment variable `JP_STREAM_IDLE_TIMEOUT_SECS` overrides it.',
    example: '120',
  },

  editor: {description: 'The editor service: which editor jp runs and the inline reply widget. See docs/editors.md.', example: '{}'},
  'editor.cmd': {
    description:
      'The editor command. A string is split like POSIX `sh` words (quotes, backslashes) and run without a shell; ' +
      'the table form is `{program, args, shell}`. The edited paths are always appended last. Unset or blank: `editor.envs` is consulted.',
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
      'Environment variables consulted in order when `editor.cmd` is unset: the first whose value splits cleanly and whose program exists is used; others are skipped with a one-line notice.',
    example: '["VISUAL", "EDITOR"]',
  },
  'editor.backend': {
    description: 'The registered editor backend (`terminal` is built in; plugins add more, see docs/plugins.md). An unknown name is an error listing the registered ones.',
    example: '"record"',
  },
  'editor.inline': {description: 'The inline reply widget.', example: '{}'},
  'editor.inline.edit_mode': {description: 'Key bindings of the inline widget: `"emacs"` or `"vi"`. See docs/reply-flow.md.', example: '"vi"'},

  interrupt: {description: 'What Ctrl+C does while an answer streams or a tool runs. See docs/reply-flow.md.', example: '{}'},
  'interrupt.escalation_cooldown_secs': {
    description: 'A second Ctrl+C within this many seconds of the first starts a graceful shutdown instead of opening the menu again.',
    example: '1.5',
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

  conversation: {description: 'Conversation settings.', example: '{}'},
  'conversation.tools': {
    description: "Local tools, one table per tool name. The table `'*'` holds defaults every tool inherits (`run`, `result`, `cancellation_response`). See docs/tools.md.",
    example: '{}',
  },
  'conversation.tools.<tool>': {description: 'One tool (or `\'*\'`, the defaults of every tool).', example: '{}'},
  'conversation.tools.<tool>.source': {description: 'Where the tool comes from; `"local"` (a program run by jp) is the only source.', example: '"local"'},
  'conversation.tools.<tool>.command': {
    description:
      'The program to run: a string (split like `sh` words, no shell) or `{program, args, shell}`. Arguments arrive as JSON on stdin and in `JP_TOOL_ARGUMENTS`; cwd is the workspace root.',
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
  'conversation.tools.<tool>.parameters': {description: 'The tool\'s arguments, one table per argument; sent to the model as a JSON schema.', example: '{}'},
  'conversation.tools.<tool>.parameters.<arg>': {description: 'One argument.', example: '{type = "string"}'},
  'conversation.tools.<tool>.parameters.<arg>.type': {description: 'Its JSON-schema type: `string`, `number`, `integer`, `boolean`, `array`, `object`.', example: '"string"'},
  'conversation.tools.<tool>.parameters.<arg>.description': {description: 'What the argument means (for the model).', example: '"who to greet"'},
  'conversation.tools.<tool>.parameters.<arg>.required': {description: 'The model must always pass it.', example: 'true'},
  'conversation.tools.<tool>.parameters.<arg>.enum': {description: 'The allowed values.', example: '["formal", "casual"]'},
  'conversation.tools.<tool>.parameters.<arg>.items': {description: 'For `type = "array"`: the JSON schema of the items.', example: '{type = "string"}'},
}

/** One documented key, in schema order. */
export interface KeyRow {
  path: string
  /** Concrete path for examples (placeholders replaced by example names). */
  examplePath: string[]
  type: string
  schema: Schema
  isTable: boolean
}

function describeType(s: Schema): string {
  switch (s.kind) {
    case 'enum':
      return s.values.map((v) => JSON.stringify(v)).join(' \\| ')
    case 'array':
      return `array of ${describeType(s.items)}`
    case 'table':
      return 'table'
    case 'map':
      return s.values.kind === 'table' ? 'table of tables' : `table of ${describeType(s.values)}`
    case 'union':
      return s.of.map(describeType).join(' \\| ')
    case 'any':
      return 'any value'
    default:
      return s.kind
  }
}

/** Every key of the schema, depth first, in declaration order. */
export function schemaRows(schema: Schema = CONFIG_SCHEMA): KeyRow[] {
  const rows: KeyRow[] = []
  const walk = (s: Schema, path: string[], example: string[]): void => {
    const tableOf = s.kind === 'table' ? s : s.kind === 'union' ? s.of.find((m) => m.kind === 'table') : undefined
    if (path.length > 0) rows.push({path: path.join('.'), examplePath: example, type: describeType(s), schema: s, isTable: s.kind === 'table' || (s.kind === 'map' && s.values.kind === 'table')})
    if (tableOf && tableOf.kind === 'table') {
      for (const [k, child] of Object.entries(tableOf.fields)) walk(child, [...path, k], [...example, k])
    } else if (s.kind === 'map' && s.values.kind === 'table') {
      const at = path.join('.')
      const ph = PLACEHOLDERS[at] ?? {segment: '<key>', example: 'key'}
      walk(s.values, [...path, ph.segment], [...example, ph.example])
    }
  }
  walk(schema, [], [])
  return rows
}

/** Schema keys without a description/example, and KEY_DOCS entries no schema key has. */
export function docCoverage(schema: Schema = CONFIG_SCHEMA): {missing: string[]; stale: string[]} {
  const paths = schemaRows(schema).map((r) => r.path)
  return {
    missing: paths.filter((p) => !Object.hasOwn(KEY_DOCS, p)),
    stale: Object.keys(KEY_DOCS).filter((p) => !paths.includes(p)),
  }
}

const bareKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : `'${k}'`)

/** The example of one key as a small TOML document (its table header, then `key = value`). */
export function exampleToml(row: KeyRow, doc: KeyDoc): string {
  const keys = row.examplePath.map(bareKey)
  if (doc.example === '{}' && row.isTable) return `[${keys.join('.')}]`
  // A sub-key of a `string | table` value is shown as the whole inline table.
  const parentIsUnion = row.path.match(/\.(cmd|command)\.(program|args|shell)$/)
  const leafKeys = parentIsUnion ? keys.slice(0, -1) : keys
  const header = leafKeys.slice(0, -1)
  const leaf = leafKeys.at(-1)!
  return (header.length > 0 ? `[${header.join('.')}]\n` : '') + `${leaf} = ${doc.example}`
}

function valueAt(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    // Under a map placeholder, the default is what `'*'` provides.
    const key = seg.startsWith('<') ? '*' : seg
    cur = (cur as Record<string, unknown>)[key]
  }
  return cur
}

function formatDefault(row: KeyRow): string {
  if (row.path === 'providers.llm.openai.base_url') return '`"https://api.openai.com/v1"` (or `$OPENAI_BASE_URL`)'
  const v = valueAt(defaultConfig({}), row.path.split('.'))
  if (v === undefined) return row.path === 'assistant.model.id' ? 'unset (the offline `echo/default`)' : 'unset'
  if (row.isTable) return '—'
  if (typeof v === 'string' && v === DEFAULT_TOOL_CANCELLED_RESPONSE) return '`' + JSON.stringify(v) + '`'
  const inherited = row.path.includes('<tool>') ? " (from `conversation.tools.'*'`)" : ''
  return '`' + JSON.stringify(v) + '`' + inherited
}

const HEADER = `<!-- GENERATED by scripts/gen-config-docs.ts from CONFIG_SCHEMA (src/lib/config/load.ts). Do not edit: run \`npm run docs:config\`. -->

# Configuration reference

jp reads TOML. Every key below is checked against one schema: an unknown key
or a wrong type stops jp before it does anything, with a one-line error (see
[Errors](#errors)). This page is generated from that schema and the built-in
defaults; \`npm run docs:config\` regenerates it and a test fails when it is
out of date.

## Layers

Later layers override earlier ones, key by key (tables merge; strings,
numbers, arrays and a whole \`cmd\`/\`command\` value replace):

1. the built-in defaults (below);
2. the user config: \`$XDG_CONFIG_HOME/jp/config.toml\`, else \`~/.config/jp/config.toml\`;
3. the workspace config: \`<workspace>/.jp/config.toml\` (not read for the default workspace);
4. the conversation's stored config: its \`base_config.json\` with the
   \`config_delta\` events of its history folded in (a query composed in the
   editor whose configuration block was changed records such a delta);
5. environment variables \`JP_CFG_<PATH>\`, in name order;
6. \`--cfg\` / \`-c\` arguments, in command-line order.

### \`JP_CFG_*\` variables

The key path upper-cased, with dots and dashes written as \`_\`:

\`\`\`sh
JP_CFG_ASSISTANT_MODEL_ID=openai/gpt-4o-mini jp query "hi"
JP_CFG_EDITOR_CMD="nvim" jp conversation edit
JP_CFG_INTERRUPT_STREAMING_COMPOSE_IN_EDITOR=always jp query "hi"
JP_CFG_CONVERSATION_TOOLS_GREET_RUN=unattended jp query "hi"
\`\`\`

The value is read as a TOML value (\`true\`, \`2\`, \`"x"\`, \`["a", "b"]\`,
\`{program = "code", args = ["--wait"]}\`); when that does not parse or does
not fit the key, the raw text is used as a string, so \`JP_CFG_EDITOR_CMD=nvim\`
needs no quotes. Tool names are matched against the configured tools
case-insensitively (else lower-cased). A \`JP_CFG_\` variable that names no
key is an error.

### \`--cfg\`

\`-c/--cfg KEY=VALUE\` sets one key (dotted TOML key, value as above);
\`-c/--cfg PATH\` loads a TOML file as a layer. Repeatable; later wins.

\`\`\`sh
jp query -c assistant.model.id=ollama/llama3.2 "hi"
jp query -c editor.inline.edit_mode=vi -c ./review.toml "hi"
jp query -c "conversation.tools.'*'.run=unattended" "hi"
\`\`\`

## Errors

Every configuration problem is one line on stderr, \`Error: \` then the
source (a file with \`:line:column\`, a \`JP_CFG_*\` variable, \`--cfg\` or
\`--cfg ARG\`), the dotted key and what was wrong; jp exits 1:

\`\`\`text
Error: /home/me/project/.jp/config.toml:2:1: editor.cmd: expected string | table, got 3
Error: /home/me/project/.jp/config.toml:2:1: editor.foo: unknown key (expected one of: cmd, envs, backend, inline)
Error: /home/me/project/.jp/config.toml:1:8: invalid TOML: illegal character in key
Error: JP_CFG_EDITOR_INLINE_EDIT_MODE: editor.inline.edit_mode: expected "emacs" | "vi", got "nano"
Error: JP_CFG_FOO: no configuration key matches this variable
Error: --cfg: editor.inline.edit_mode: expected "emacs" | "vi", got "nano"
Error: --cfg nosuch.toml: is neither KEY=VALUE nor an existing file
\`\`\`

A command string that cannot be split into words stops loading the same way:
\`Error: /home/me/.config/jp/config.toml:2:1: editor.cmd: cannot split into words: Got EOF while in a quoted string\`.
Problems only visible when a value is used are reported alike, e.g.
\`Error: config: editor.backend: unknown editor backend "foo"; registered: terminal\`.
A provider whose key variable is unset fails before any request:
\`Error: ANTHROPIC_API_KEY is not set (needed by provider anthropic)\`.
`

/** The whole of docs/configuration.md. */
export function renderConfigDocs(): string {
  const out: string[] = [HEADER]
  out.push('## Defaults\n', 'The lowest layer, as TOML (`OPENAI_BASE_URL`, when set, replaces the OpenAI `base_url`):\n')
  out.push('```toml', stringify(defaultConfig({})).trim(), '```\n')
  out.push('## Keys\n')
  out.push(
    "Placeholders: `<tool>` is a tool's name (or `'*'`, the defaults of every tool), `<arg>` one of its arguments. " +
      'Keys shown as `a.b.program` belong to the table form of a value that may also be a string.\n',
  )
  let section = ''
  for (const row of schemaRows()) {
    const top = row.path.split('.')[0]
    if (top !== section) {
      section = top
      out.push(`### ${top}\n`)
    }
    const doc = KEY_DOCS[row.path]
    if (!doc) continue // docCoverage() reports it; the test fails
    out.push(`#### \`${row.path}\`\n`)
    out.push(`- Type: ${row.type}`)
    out.push(`- Default: ${formatDefault(row)}\n`)
    out.push(doc.description + '\n')
    out.push('```toml', exampleToml(row, doc), '```\n')
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n'
}

export const CONFIG_DOCS_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md')

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const {missing} = docCoverage()
  if (missing.length > 0) {
    console.error(`gen-config-docs: no description in KEY_DOCS for: ${missing.join(', ')}`)
    process.exit(1)
  }
  writeFileSync(CONFIG_DOCS_PATH, renderConfigDocs())
  console.log(`wrote ${CONFIG_DOCS_PATH}`)
}
