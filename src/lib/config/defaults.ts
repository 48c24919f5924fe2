// Built-in defaults: the lowest configuration layer (SPEC §4).
import {type Config, DEFAULT_TOOL_CANCELLED_RESPONSE} from './types.js'

/** The offline model used when no `assistant.model.id` is configured anywhere (SPEC §12). */
export const FALLBACK_MODEL_ID = 'echo/default'

/**
 * A fresh copy of the defaults. `OPENAI_BASE_URL` replaces the default OpenAI
 * base URL here, so any config file or `--cfg` that sets `base_url` still wins.
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const openaiBase = env.OPENAI_BASE_URL?.trim()
  return {
    assistant: {model: {}},
    providers: {
      llm: {
        anthropic: {base_url: 'https://api.anthropic.com', api_key_env: 'ANTHROPIC_API_KEY'},
        openai: {base_url: openaiBase || 'https://api.openai.com/v1', api_key_env: 'OPENAI_API_KEY'},
        openrouter: {base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OPENROUTER_API_KEY'},
        ollama: {base_url: 'http://localhost:11434'},
        llamacpp: {base_url: 'http://127.0.0.1:8080/v1'},
      },
    },
    editor: {
      envs: ['JP_EDITOR', 'VISUAL', 'EDITOR'],
      backend: 'terminal',
      inline: {edit_mode: 'emacs'},
    },
    interrupt: {
      escalation_cooldown_secs: 2,
      streaming: {action: 'prompt', compose_in_editor: false},
      tool_call: {action: 'prompt', compose_in_editor: false},
    },
    query: {compose_in_editor: false},
    style: {markdown: true, hyperlinks: false, code_theme: 'ansi'},
    conversation: {
      tools: {
        '*': {run: 'ask', result: 'unattended', cancellation_response: DEFAULT_TOOL_CANCELLED_RESPONSE},
      },
    },
  }
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
