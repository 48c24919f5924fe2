// Generates docs/configuration.md from the configuration schema (CONFIG_SCHEMA
// in src/lib/config/schema.ts) and the built-in defaults, so the reference
// cannot drift from the code: `npm run docs:config` rewrites it, and
// test/docs/configuration.test.ts fails when the committed file differs or
// when a schema key has no entry in KEY_DOCS (src/lib/config/key-docs.ts).
//
// The schema carries types only; the prose (description and an example
// value, as a TOML literal) lives in src/lib/config/key-docs.ts, keyed by dotted path. Map keys (tool
// names, parameter names) appear as placeholders such as `<tool>`.
import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {stringify} from 'smol-toml'

import {defaultConfig} from '../src/lib/config/defaults.js'
import {KEY_ACTION_NAMES, KEY_ACTIONS} from '../src/lib/config/key-actions.js'
import {NAMED_KEYS} from '../src/lib/config/key-spec.js'
import {DEFAULT_KEYMAPS} from '../src/lib/config/keymaps.js'
import {KEY_DOCS, PLACEHOLDERS, type KeyDoc} from '../src/lib/config/key-docs.js'
import {PROVIDER_NAMES, PROVIDERS, type ProviderSpec} from '../src/lib/config/providers.js'
import {CONFIG_SCHEMA, type Schema} from '../src/lib/config/schema.js'
import {numberType} from '../src/lib/config/validate.js'
import {DEFAULT_TOOL_CANCELLED_RESPONSE} from '../src/lib/config/types.js'

/** The providers whose default base URL an environment variable replaces, with that variable. */
const BASE_URL_VARIABLES = PROVIDER_NAMES.flatMap((name) => {
  const spec: ProviderSpec = PROVIDERS[name]
  return spec.baseUrlEnv === undefined ? [] : [{name, spec, variable: spec.baseUrlEnv}]
})

export {KEY_DOCS, PLACEHOLDERS, type KeyDoc} from '../src/lib/config/key-docs.js'

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
      if (s.typeName) return s.typeName
      return s.values.kind === 'table' ? 'table of tables' : `table of ${describeType(s.values)}`
    case 'union':
      return s.of.map(describeType).join(' \\| ')
    case 'any':
      return 'any value'
    case 'number':
      return numberType(s)
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
  const fromEnv = BASE_URL_VARIABLES.find((p) => row.path === `providers.llm.${p.name}.base_url`)
  if (fromEnv) return '`' + JSON.stringify(fromEnv.spec.baseUrl) + '` (or `$' + fromEnv.variable + '`)'
  if (row.path.startsWith('editor.inline.keys.')) return `the built-in \`${row.path.split('.').at(-1)}\` table ([Key bindings](#key-bindings))`
  const v = valueAt(defaultConfig({}), row.path.split('.'))
  if (v === undefined) return row.path === 'assistant.model.id' ? 'unset (the offline `echo/default`)' : 'unset'
  if (row.isTable) return '—'
  if (typeof v === 'string' && v === DEFAULT_TOOL_CANCELLED_RESPONSE) return '`' + JSON.stringify(v) + '`'
  const inherited = row.path.includes('<tool>') ? " (from `conversation.tools.'*'`)" : ''
  return '`' + JSON.stringify(v) + '`' + inherited
}

const HEADER = `<!-- GENERATED by scripts/gen-config-docs.ts from CONFIG_SCHEMA (src/lib/config/schema.ts). Do not edit: run \`npm run docs:config\`. -->

# Configuration reference

jp reads TOML. Every key below is checked against one schema: an unknown key
or a wrong type in any layer stops every jp command before it does anything,
with a one-line error (see [Errors](#errors)), whether or not the command
uses that key. Three commands do not load the configuration: \`jp init\`
(it writes a workspace; the next command checks it), \`jp config set\` (it
checks the file it writes as jp would load it, so it can repair a wrong
value) and \`jp completion\` (a shell script); nor do oclif's \`jp plugins\`
and \`jp help\`. This page is generated from that schema and the built-in
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

Like \`git -c\`, the value of a key that takes a string is the text exactly
as given: quotes, \`#\` and \`=\` included, so \`JP_CFG_EDITOR_CMD=nvim\` needs
no quotes and \`'/opt/My Editor/ed'\` keeps the quotes that make it one word
when the command is split. For a typed key the value is read as a TOML value
(\`true\`, \`2\`, \`["a", "b"]\`, \`{program = "code", args = ["--wait"]}\`); when
that does not parse or does not fit the key, the raw text is used as a
string (a key that takes a string *or* a table, like \`editor.cmd\`, gets a
table only from an inline table). Tool names are matched against the configured tools
case-insensitively (else lower-cased). A \`JP_CFG_\` variable that names no
key is an error.

### \`--cfg\`

\`-c/--cfg KEY=VALUE\` sets one key (dotted TOML key, value as above);
\`-c/--cfg PATH\` loads a TOML file as a layer. Repeatable; later wins.

\`\`\`sh
jp query -c assistant.model.id=ollama/llama3.2 "hi"
jp query -c editor.inline.edit_mode=vi -c ./review.toml "hi"
jp query -c "conversation.tools.'*'.run=unattended" "hi"
jp query -e -c "editor.cmd='/opt/My Editor/ed' --wait" "hi"   # runs /opt/My Editor/ed --wait FILE
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
Error: --cfg: empty argument (expected KEY=VALUE or the path of a TOML file)
Error: --cfg: interrupt.escalation_cooldown_secs: expected number >= 0, got -5
Error: /home/me/.config/jp/config.toml:3:1: editor.inline.keys.emacs.ctrl-q: unknown action "sumbit" (did you mean "submit"?); the actions are listed under "Key bindings" in docs/configuration.md
\`\`\`

A command string that cannot be split into words stops loading the same way:
\`Error: /home/me/.config/jp/config.toml:2:1: editor.cmd: cannot split into words: Got EOF while in a quoted string\`.
Problems only visible when a value is used are reported alike, e.g.
\`Error: config: editor.backend: unknown editor backend "foo"; registered: terminal\`.
A provider whose key variable is unset fails before any request:
\`Error: ANTHROPIC_API_KEY is not set (needed by provider anthropic)\`.
`

const code = (s: string) => '`' + s + '`'

/** The "Key bindings" section: how tables merge, the key spec grammar, every action and the default tables. */
function keyBindingsSection(): string[] {
  const out: string[] = []
  out.push(
    '## Key bindings\n',
    "The inline widget's keys are data: each keymap — `emacs`, and vi's `vi_insert` and `vi_normal` — is a table from a key spec to an action. " +
      '`editor.inline.keys.<keymap>` is merged over the built-in table:\n',
    '- a key you bind replaces its default, and `"none"` unbinds it;',
    '- a two-key sequence displaces the default binding of its first key: `"ctrl-x ctrl-e" = "open_editor"` makes Ctrl+X a prefix, so Ctrl+X alone no longer opens the editor (Ctrl+G still does);',
    '- a key that would cut off a longer sequence is an error: binding `d` in `vi_normal`, where `d w`, `d d`, … are sequences, fails until you bind those sequences to `"none"`; so does binding both `ctrl-q` and `ctrl-q ctrl-w` (in one file or across layers);',
    '- after the first key of a sequence, a key that continues none ends the wait: in `vi_normal` both keys are dropped (as vi drops `dx`); elsewhere the first key acts alone (a printable character is typed, so `"j j" = "vi_normal_mode"` still lets you type `jx`) and then the second key acts;',
    '- printable characters with no binding type themselves (in `vi_normal` they do nothing), and pasted text is inserted as it is, never looked up;',
    '- a key bound without `shift-` also answers with Shift held (Shift+Home acts as Home) unless the Shift form has its own binding.\n',
    'An untrusted workspace may set bindings: they run nothing ([trust](trust.md)).\n',
    '```toml',
    '[editor.inline.keys.vi_insert]',
    '"enter" = "newline"      # Enter inserts a line break in insert mode',
    '"alt-enter" = "submit"   # and Alt+Enter sends',
    '"j j" = "vi_normal_mode"',
    '',
    '[editor.inline.keys.emacs]',
    '"ctrl-z" = "none"',
    '```\n',
    '### Key specs\n',
    'A spec is one key, or two separated by one space (a sequence, typed one after the other): `"ctrl-r"`, `"alt-enter"`, `"ctrl-x ctrl-e"`, `"d w"`. A key is any number of the modifiers `ctrl-`, `alt-` and `shift-` (any order, each once, any case) followed by:\n',
    `- a named key: ${NAMED_KEYS.map(code).join(', ')}; or`,
    '- one printable character: `a`, `A`, `$`, `<`, `_`, `-`, `é`.\n',
    'After `ctrl-` or `alt-` the case of a letter does not matter (`ctrl-R` is `ctrl-r`; write `shift-` for Shift: `ctrl-shift-z`). A plain character stands for itself, so in `vi_normal` `"A"` is Shift+A and `"a"` is a; `shift-a` is `A`. `shift-` with a character that has no upper case (`shift-$`) is an error: write the character. ' +
      'What a terminal can send limits what is useful: Shift+Enter and Ctrl+Shift+letter arrive only from terminals with the kitty keyboard protocol (not through tmux), so keep an Alt or Ctrl fallback.\n',
    '### Actions\n',
    '| Action | What it does |',
    '|---|---|',
    ...KEY_ACTION_NAMES.map((name) => `| ${code(name)} | ${KEY_ACTIONS[name].description}${(KEY_ACTIONS[name] as {vi?: true}).vi ? ' (vi tables only)' : ''} |`),
    '',
    '### The built-in tables\n',
  )
  const table = (rows: Array<[string, string]>) => ['| Key | Action |', '|---|---|', ...rows.map(([k, a]) => `| ${code(k)} | ${code(a)} |`), '']
  out.push('#### `emacs`\n', ...table(Object.entries(DEFAULT_KEYMAPS.emacs)))
  const extra = Object.entries(DEFAULT_KEYMAPS.vi_insert).filter(([k, a]) => DEFAULT_KEYMAPS.emacs[k] !== a)
  out.push('#### `vi_insert`\n', 'The `emacs` table, plus:\n', ...table(extra))
  out.push('#### `vi_normal`\n', ...table(Object.entries(DEFAULT_KEYMAPS.vi_normal)))
  return out
}

/** The whole of docs/configuration.md. */
export function renderConfigDocs(): string {
  const out: string[] = [HEADER]
  const replaced = BASE_URL_VARIABLES.map((p) => `\`${p.variable}\` replaces \`providers.llm.${p.name}.base_url\``).join(', ')
  out.push('## Defaults\n', `The lowest layer, as TOML (when set, ${replaced}):\n`)
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
  out.push(...keyBindingsSection())
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
