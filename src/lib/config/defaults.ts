// Built-in defaults: the lowest configuration layer (SPEC §4).
import {defaultBaseUrl, PROVIDER_NAMES, PROVIDERS, type ProviderName, type ProviderSpec} from './providers.js'
import {type Config, DEFAULT_TOOL_CANCELLED_RESPONSE, type ProviderConfig} from './types.js'

/** The offline model used when no `assistant.model.id` is configured anywhere (SPEC §12). */
export const FALLBACK_MODEL_ID = 'echo/default'

/**
 * A fresh copy of the defaults. A provider's base-URL variable
 * (`OPENAI_BASE_URL`, PROVIDERS' `baseUrlEnv`) replaces its default base URL
 * here, so any config file or `--cfg` that sets `base_url` still wins.
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    assistant: {model: {}},
    providers: {
      llm: Object.fromEntries(PROVIDER_NAMES.map((name) => [name, providerDefaults(name, env)])) as Record<ProviderName, ProviderConfig>,
    },
    editor: {
      envs: ['JP_EDITOR', 'VISUAL', 'EDITOR'],
      backend: 'terminal',
      inline: {edit_mode: 'emacs', complete_mentions: 'tab'},
    },
    interrupt: {
      escalation_cooldown_secs: 2,
      queue_countdown_secs: 3,
      queue_delivery: 'next_step',
      type_to_queue: true,
      streaming: {action: 'prompt', compose_in_editor: false},
      tool_call: {action: 'prompt', compose_in_editor: false},
    },
    query: {compose_in_editor: false, attach_max_bytes: 1024 * 1024},
    style: {markdown: true, hyperlinks: false, code_theme: 'ansi'},
    conversation: {
      tools: {
        '*': {run: 'ask', result: 'unattended', cancellation_response: DEFAULT_TOOL_CANCELLED_RESPONSE},
      },
    },
    mcp: {servers: {}},
  }
}

/** One `providers.llm.NAME` table of the defaults, from the provider table. */
function providerDefaults(name: ProviderName, env: NodeJS.ProcessEnv): ProviderConfig {
  const spec: ProviderSpec = PROVIDERS[name]
  const base_url = defaultBaseUrl(name, env)
  return spec.apiKeyEnv === undefined ? {base_url} : {base_url, api_key_env: spec.apiKeyEnv}
}

/** The model id to use: the configured one, else the offline fallback. */
export function modelIdFromConfig(config: Config): string {
  const id = config.assistant.model.id?.trim()
  return id ? id : FALLBACK_MODEL_ID
}

/** The model a query uses: `--model`, else {@link modelIdFromConfig}. */
export function queryModelId(flag: string | undefined, config: Config): string {
  return flag ?? modelIdFromConfig(config)
}
