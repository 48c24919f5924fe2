// Model resolution: "provider/model" → a ready Provider. Adapters are
// imported lazily so nothing provider-related loads until a query runs, and a
// missing API key fails here, before any request is made.
import {envBaseUrl, modelIdProblem, PROVIDER_NAMES, providerSpec, type ProviderName, type ProviderSpec} from '../config/providers.js'
import type {ProviderConfig} from '../config/types.js'
import {modelParametersProblem, type ModelParameters} from './parameters.js'
import {isProviderError, ProviderError, type Provider} from './types.js'

export * from './types.js'

export interface ResolvedModel {
  provider: Provider
  model: string
  /** One line to show before the first request (a key about to go over plain http). */
  warning?: string
}

/** `providers.llm`: one table per provider, plus the shared `timeout_secs`. */
type ProvidersConfig = Partial<Record<ProviderName, ProviderConfig>> & {timeout_secs?: number}

export class ModelResolutionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelResolutionError'
  }
}

/** Splits `provider/model` at the first slash (model names may contain more). */
export function parseModelId(id: string): {provider: string; model: string} {
  const trimmed = id.trim()
  const slash = trimmed.indexOf('/')
  if (slash <= 0 || slash === trimmed.length - 1) throw new ModelResolutionError(modelIdProblem(id)!)
  return {provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1)}
}

export async function resolveModel(
  id: string,
  providersConfig: ProvidersConfig,
  env: NodeJS.ProcessEnv = process.env,
  parameters?: ModelParameters,
): Promise<ResolvedModel> {
  const {provider: name, model} = parseModelId(id)

  if (name === 'echo') {
    const {createEchoProvider, echoDelayFromEnv} = await import('./echo.js')
    return {provider: createEchoProvider({delayMs: echoDelayFromEnv(env)}), model}
  }

  // Which wire format the provider speaks comes from the one provider table.
  const spec = providerSpec(name)
  const config = spec ? providersConfig[name as ProviderName] : undefined
  if (!spec || !config) {
    const known = ['echo', ...PROVIDER_NAMES].join(', ')
    throw new ModelResolutionError(`unknown provider "${name}" in model id "${id}" (known: ${known})`)
  }

  // A parameter the provider has no place for stops the query here, before any request.
  const {wire} = spec
  const problem = modelParametersProblem(wire, name, parameters)
  if (problem) throw new ModelResolutionError(problem)

  const urlProblem = baseUrlProblem(name, spec, config.base_url, env)
  if (urlProblem) throw new ModelResolutionError(urlProblem)

  const timeoutSecs = providersConfig.timeout_secs
  const {streamIdleTimeoutMs} = await import('./http.js')
  const timeoutMs = streamIdleTimeoutMs(env, timeoutSecs)

  let apiKey: string | undefined
  if (config.api_key_env) {
    apiKey = env[config.api_key_env]?.trim()
    if (!apiKey) throw new ModelResolutionError(`${config.api_key_env} is not set (needed by provider ${name})`)
  }

  const warning = apiKey ? plainHttpKeyWarning(name, config.base_url, config.api_key_env!) : undefined
  const created = await createProvider(wire, {name, baseUrl: config.base_url, apiKey, timeoutMs})
  const provider = apiKey ? namingKeyOnRefusal(created, config.api_key_env!) : created
  return warning ? {provider, model, warning} : {provider, model}
}

async function createProvider(wire: ProviderSpec['wire'], opts: {name: string; baseUrl: string; apiKey?: string; timeoutMs: number}): Promise<Provider> {
  switch (wire) {
    case 'anthropic':
      return (await import('./anthropic.js')).createAnthropicProvider(opts)
    case 'openai':
      return (await import('./openai.js')).createOpenAIProvider(opts)
    case 'ollama':
      return (await import('./ollama.js')).createOllamaProvider(opts)
  }
}

/** Whether `hostname` (as URL gives it) is this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '')
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0.0.0.0' || h === '::'
}

/**
 * The warning for a key about to travel unencrypted: plain http to a host
 * that is not this machine (issue 28). Anyone on the way can read it.
 */
export function plainHttpKeyWarning(name: string, baseUrl: string, keyVar: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname)) return undefined
  return `providers.llm.${name}.base_url is ${baseUrl}: your key (${keyVar}) will be sent unencrypted over plain http to ${url.hostname}; use https://`
}

/** A base URL no request could be sent to (`localhost:11434`, `api.example.com`): said once, naming where it came from, rather than retried as a network failure. */
export function baseUrlProblem(name: string, spec: ProviderSpec, baseUrl: string, env: NodeJS.ProcessEnv): string | undefined {
  let protocol: string | undefined
  try {
    protocol = new URL(baseUrl).protocol
  } catch {
    // not a URL at all
  }
  if (protocol === 'http:' || protocol === 'https:') return undefined
  const from = spec.baseUrlEnv !== undefined && envBaseUrl(spec, env) === baseUrl ? ` (from ${spec.baseUrlEnv})` : ''
  return `providers.llm.${name}.base_url = ${JSON.stringify(baseUrl)}${from}: expected an http:// or https:// URL`
}

/**
 * A 401 or 403 says which variable the key came from (never the key), so
 * the user knows what to fix: `openai: 401 bad key (jp sent the key in OPENAI_API_KEY)`.
 */
function namingKeyOnRefusal(provider: Provider, keyVar: string): Provider {
  const wrapped = Object.create(provider) as Provider & {stream: Provider['stream']}
  wrapped.stream = async function* (req, signal) {
    try {
      yield* provider.stream(req, signal)
    } catch (error) {
      if (isProviderError(error) && (error.status === 401 || error.status === 403)) {
        throw new ProviderError(`${error.message} (jp sent the key in ${keyVar})`, {provider: error.provider, status: error.status, retryable: false, cause: error})
      }
      throw error
    }
  }
  return wrapped
}
