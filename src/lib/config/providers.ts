// The LLM providers jp knows (SPEC §4, §12), as one table. Everything else
// about a provider is derived from it: the `providers.llm.NAME` tables of the
// schema (./schema.ts), `ProviderName` (./types.ts), the default base URLs and
// key variables (./defaults.ts), the key docs (./key-docs.ts) and the wire
// format each model id is sent in (../llm/index.ts). Adding a provider is one
// row here plus, for a new wire format, an adapter in ../llm/.
//
// Pure data and string helpers: config/ imports only text/, and the schema
// (loaded on every command that reads config) pays for nothing more.

/** The wire formats jp's adapters speak (`llm/anthropic.ts`, `llm/openai.ts`, `llm/ollama.ts`). */
export type Wire = 'anthropic' | 'openai' | 'ollama'

export interface ProviderSpec {
  /** The adapter that carries this provider's requests. */
  wire: Wire
  /** What it is, for the docs: `The NAME provider (ABOUT).` */
  about: string
  /** The default `base_url`. */
  baseUrl: string
  /**
   * An environment variable that, when set and non-blank, replaces the
   * default `base_url` (a config file or `--cfg` still wins): the one the
   * provider's own tools read, so a shell set up for them works for jp.
   */
  baseUrlEnv?: string
  /** `host`: the variable names a host as the provider's own clients read it (`OLLAMA_HOST=gpu-box`), not a URL. */
  baseUrlEnvForm?: 'url' | 'host'
  /** The default `api_key_env`; absent for a provider that needs no key. */
  apiKeyEnv?: string
  /** A `base_url` the docs show as an example. */
  exampleBaseUrl: string
  /** How the docs spell the model part of its ids, when not just `MODEL`. */
  modelForm?: string
}

export const PROVIDERS = {
  anthropic: {
    wire: 'anthropic',
    about: 'Anthropic Messages API, SSE',
    baseUrl: 'https://api.anthropic.com',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    exampleBaseUrl: 'https://proxy.example.com/anthropic',
  },
  openai: {
    wire: 'openai',
    about: 'OpenAI Chat Completions, SSE',
    baseUrl: 'https://api.openai.com/v1',
    baseUrlEnv: 'OPENAI_BASE_URL',
    apiKeyEnv: 'OPENAI_API_KEY',
    exampleBaseUrl: 'https://proxy.example.com/openai',
  },
  openrouter: {
    wire: 'openai',
    about: 'OpenAI wire format',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    modelForm: 'VENDOR/MODEL',
    exampleBaseUrl: 'https://proxy.example.com/openrouter',
  },
  llamacpp: {
    wire: 'openai',
    about: 'llama.cpp server, OpenAI wire format',
    baseUrl: 'http://127.0.0.1:8080/v1',
    exampleBaseUrl: 'http://127.0.0.1:8081/v1',
  },
  ollama: {
    wire: 'ollama',
    about: 'native `/api/chat`, NDJSON',
    baseUrl: 'http://localhost:11434',
    baseUrlEnv: 'OLLAMA_HOST',
    baseUrlEnvForm: 'host',
    exampleBaseUrl: 'http://gpu-box:11434',
  },
} as const satisfies Record<string, ProviderSpec>

/** A provider of the table: the first segment of a model id such as `anthropic/claude-sonnet-4-5`. */
export type ProviderName = keyof typeof PROVIDERS

/** The table's names, in its order (the order the docs and error messages list them). */
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[]

/**
 * What is wrong with a model id (`PROVIDER/MODEL`, the provider one jp
 * knows), or undefined: what a query checks first, and `jp config set
 * assistant.model.id` before it writes.
 */
export function modelIdProblem(id: string): string | undefined {
  const trimmed = id.trim()
  const slash = trimmed.indexOf('/')
  if (slash <= 0 || slash === trimmed.length - 1) return `invalid model id "${id}": expected PROVIDER/MODEL, e.g. anthropic/claude-sonnet-4-5`
  const name = trimmed.slice(0, slash)
  if (name !== 'echo' && !providerSpec(name)) return `unknown provider "${name}" in model id "${id}" (known: ${['echo', ...PROVIDER_NAMES].join(', ')})`
  return undefined
}

/** The provider spec for a name from a model id or a config key, or undefined when jp knows no such provider. */
export function providerSpec(name: string): ProviderSpec | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as ProviderName] : undefined
}

/** The default `base_url` of `name` under `env`: its `baseUrlEnv` when set and non-blank, else the table's. */
export function defaultBaseUrl(name: ProviderName, env: NodeJS.ProcessEnv): string {
  const spec: ProviderSpec = PROVIDERS[name]
  return envBaseUrl(spec, env) ?? spec.baseUrl
}

/** The base URL `spec`'s environment variable sets, or undefined when it has none or it is blank. */
export function envBaseUrl(spec: ProviderSpec, env: NodeJS.ProcessEnv): string | undefined {
  if (spec.baseUrlEnv === undefined) return undefined
  const value = env[spec.baseUrlEnv]?.trim()
  if (!value) return undefined
  return spec.baseUrlEnvForm === 'host' ? hostBaseUrl(value, spec.baseUrl) : value
}

/**
 * A host as Ollama's clients read `OLLAMA_HOST`, as a base URL: without a
 * scheme it is http and the default URL's port (`gpu-box` →
 * `http://gpu-box:11434`, `:8080` → `http://127.0.0.1:8080`); with one it is
 * taken as written (`https://gpu-box`). What is no host at all is returned
 * as is, for resolveModel to refuse, naming the variable.
 */
export function hostBaseUrl(value: string, defaultUrl: string): string {
  if (value.includes('://')) return value.replace(/\/+$/, '')
  const port = new URL(defaultUrl).port
  const text = value.startsWith(':') ? `127.0.0.1${value}` : value
  try {
    const url = new URL(`http://${text}`)
    const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : ''
    return `http://${auth}${url.host}${url.port === '' && port ? `:${port}` : ''}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return value
  }
}
