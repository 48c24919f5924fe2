// The typed shape of jp's merged configuration (SPEC §4). Loading, merging
// and validation live in ./load.ts; everything else reads this shape. It is
// the schema's shape (./schema.ts) with the keys the defaults always fill made
// required: test/config/config-type.test.ts fails to compile when the two differ.
import type {ProviderName} from './providers.js'

export type {ProviderName} from './providers.js'

/** Where a reply is composed: inline-first (false, "never") or editor-first (true, "always"). */
export type ComposeInEditor = boolean | 'always' | 'never'

export type EditMode = 'emacs' | 'vi'

/** `editor.inline.keys`: the user's key bindings per table (key spec → action name), over the defaults of ./keymaps.ts. */
export interface InlineKeysConfig {
  emacs?: Record<string, string>
  vi_insert?: Record<string, string>
  vi_normal?: Record<string, string>
}

/** The `{program, args, shell}` table shared by `editor.cmd` and tool commands. */
export interface CommandConfig {
  program: string
  args: string[]
  shell: boolean
}

/** When the `@` mention list opens: on Tab (`complete`), or also after two typed characters of a mention. */
export type CompleteMentions = 'tab' | 'auto'

export interface EditorSection {
  /** String (shlex-split, shell = false) or table form; unset/blank falls through to `envs`. */
  cmd?: string | CommandConfig
  envs: string[]
  backend: string
  inline: {edit_mode: EditMode; complete_mentions: CompleteMentions; keys?: InlineKeysConfig}
}

/** `interrupt.queue_delivery` (SPEC §19). */
export type QueueDelivery = 'next_step' | 'turn_end'

export type StreamingAction = 'prompt' | 'continue' | 'stop' | 'abort' | 'reply'
export type ToolCallAction = 'prompt' | 'continue' | 'restart' | 'respond' | 'stop'

export interface InterruptSection {
  escalation_cooldown_secs: number
  /** Seconds the queued reply's countdown runs before it is sent (0: at once). */
  queue_countdown_secs: number
  /** When a queued reply reaches the model: at the next request of a tool loop, or only after the turn. */
  queue_delivery: QueueDelivery
  /** On a terminal, a printable key typed while jp works opens the `Queue:` prompt. */
  type_to_queue: boolean
  streaming: {action: StreamingAction; compose_in_editor: ComposeInEditor}
  tool_call: {action: ToolCallAction; compose_in_editor: ComposeInEditor}
}

export interface ProviderConfig {
  base_url: string
  /** Name of the environment variable holding the key; absent for keyless providers. */
  api_key_env?: string
}

export type ToolRunMode = 'ask' | 'unattended' | 'edit' | 'skip'
export type ToolResultMode = 'unattended' | 'ask' | 'edit' | 'skip'

export interface ToolParameter {
  type: string
  description?: string
  required?: boolean
  enum?: unknown[]
  items?: Record<string, unknown>
}

/** `conversation.tools.NAME.env`: which of jp's environment variables the tool gets (tool/environment.ts). */
export interface ToolEnvConfig {
  inherit?: 'all' | 'core' | 'none'
  keep?: string[]
  drop?: string[]
}

export interface ToolConfig {
  source?: string
  command?: string | CommandConfig
  summary?: string
  run?: ToolRunMode
  result?: ToolResultMode
  cancellation_response?: string
  enable?: boolean
  env?: ToolEnvConfig
  parameters?: Record<string, ToolParameter>
}

/** `mcp.servers.NAME` (SPEC §19): stdio (`command`, `args`, `env`, `cwd`) or Streamable HTTP (`url`, `headers`). */
export interface McpServerConfig {
  command?: string
  args?: string[]
  /** Variables set for the server; a value `"$VAR"` is jp's own variable VAR. */
  env?: Record<string, string>
  cwd?: string
  url?: string
  /** HTTP headers; a value `"$VAR"` is jp's own variable VAR (secrets stay out of files). */
  headers?: Record<string, string>
  enable?: boolean
  timeout_secs?: number
}

export interface Config {
  assistant: {
    model: {
      id?: string
      parameters?: {reasoning?: string | boolean; max_tokens?: number; temperature?: number}
    }
    system_prompt?: string
  }
  providers: {
    /** One table per provider of PROVIDERS (./providers.ts), plus `timeout_secs`: how long a request may wait for headers or data. */
    llm: Record<ProviderName, ProviderConfig> & {timeout_secs?: number}
  }
  editor: EditorSection
  interrupt: InterruptSection
  /** Where a bare `jp query` on a terminal composes the query (SPEC §17). */
  query: {compose_in_editor: ComposeInEditor; attach_max_bytes: number}
  /** How assistant text looks on a terminal (SPEC §18 "Markdown on the terminal"). */
  style: StyleSection
  conversation: {tools: Record<string, ToolConfig>}
  mcp: {servers: Record<string, McpServerConfig>}
}

/** `style.code_theme`: the named highlighting themes (src/lib/markdown/style.ts). */
export type CodeThemeName = 'ansi' | 'dark' | 'light' | 'mono'

export interface StyleSection {
  /** Render the model's markdown when stdout is a terminal. */
  markdown: boolean
  /** OSC 8 hyperlinks around link text. */
  hyperlinks: boolean
  code_theme: CodeThemeName
}

export const DEFAULT_TOOL_CANCELLED_RESPONSE =
  'This tool request was intentionally rejected by the user. Do not retry it; ask the user how to proceed.'
