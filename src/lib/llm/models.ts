// `jp models`: the models each configured provider offers, asked of the
// provider itself — OpenAI-format `GET {base_url}/models`, Anthropic
// `GET {base_url}/v1/models` (paged), Ollama `GET {base_url}/api/tags` —
// with the same base URLs, key variables, headers, proxy and error lines as
// a query's requests (./http.ts). Every provider is asked at once, under one
// deadline; one that cannot answer (no key, no server, a refusal, a strange
// body) is one line, and the others are still listed.
import {PROVIDERS, type ProviderName, type ProviderSpec} from '../config/providers.js'
import type {ProviderConfig} from '../config/types.js'
import {ANTHROPIC_VERSION} from './anthropic.js'
import {isRecord, joinUrl, postJson, readText} from './http.js'
import {baseUrlProblem} from './index.js'
import {isProviderError} from './types.js'

export interface ListedModel {
  provider: ProviderName
  /** The model as the provider names it (`claude-sonnet-4-5`, `llama3.2:latest`). */
  model: string
  /** What `--model` and `assistant.model.id` take: `PROVIDER/MODEL`. */
  id: string
  /** A display name, when the provider gives one (Anthropic's `display_name`). */
  name?: string
}

/** One provider's answer: its models, or the one line saying why there are none. */
export type ProviderListing = {provider: ProviderName; models: ListedModel[]} | {provider: ProviderName; problem: string}

/** How long `jp models` waits for all providers together, by default. */
export const MODELS_TIMEOUT_MS = 5000

/** A listing body is read up to this many characters (OpenRouter's is about 1 MB). */
const BODY_CHARS = 32 * 1024 * 1024

/** Anthropic pages its list; jp follows at most this many pages of 1,000. */
const MAX_PAGES = 10

interface Ask {
  name: ProviderName
  spec: ProviderSpec
  baseUrl: string
  apiKey?: string
  keyVar?: string
  signal: AbortSignal
  timeoutMs: number
}

/**
 * Asks every provider in `names` at once and waits at most `timeoutMs` for
 * all of them; the listings come back in `names`' order.
 */
export async function listModels(
  providers: Partial<Record<ProviderName, ProviderConfig>>,
  names: readonly ProviderName[],
  env: NodeJS.ProcessEnv,
  timeoutMs = MODELS_TIMEOUT_MS,
): Promise<ProviderListing[]> {
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), timeoutMs)
  try {
    return await Promise.all(names.map((name) => listOne(name, providers[name], env, deadline.signal, timeoutMs)))
  } finally {
    clearTimeout(timer)
  }
}

async function listOne(name: ProviderName, config: ProviderConfig | undefined, env: NodeJS.ProcessEnv, signal: AbortSignal, timeoutMs: number): Promise<ProviderListing> {
  const spec: ProviderSpec = PROVIDERS[name]
  if (!config) return {provider: name, problem: `providers.llm.${name} is not configured`}
  const urlProblem = baseUrlProblem(name, spec, config.base_url, env)
  if (urlProblem) return {provider: name, problem: urlProblem}
  const keyVar = config.api_key_env
  const apiKey = keyVar ? env[keyVar]?.trim() : undefined
  if (keyVar && !apiKey) return {provider: name, problem: `${keyVar} is not set`}
  const ask: Ask = {name, spec, baseUrl: config.base_url, apiKey, keyVar, signal, timeoutMs}
  try {
    const models = await modelsOf(ask)
    return {provider: name, models: models.map((model) => ({provider: name, id: `${name}/${model.model}`, ...model}))}
  } catch (error) {
    return {provider: name, problem: problemLine(ask, error)}
  }
}

function modelsOf(ask: Ask): Promise<Array<{model: string; name?: string}>> {
  switch (ask.spec.wire) {
    case 'openai':
      return openaiModels(ask)
    case 'anthropic':
      return anthropicModels(ask)
    case 'ollama':
      return ollamaModels(ask)
  }
}

/** `{object: "list", data: [{id, object: "model", created, owned_by}]}` */
async function openaiModels(ask: Ask): Promise<Array<{model: string}>> {
  const url = joinUrl(ask.baseUrl, '/models')
  const body = await getJson(ask, url, ask.apiKey ? {authorization: `Bearer ${ask.apiKey}`} : {})
  return listOf(body, 'data', url).map((m) => ({model: stringField(m, 'id', url)}))
}

/** `{data: [{type: "model", id, display_name, created_at}], has_more, first_id, last_id}`, followed by `after_id`. */
async function anthropicModels(ask: Ask): Promise<Array<{model: string; name?: string}>> {
  const headers: Record<string, string> = {'anthropic-version': ANTHROPIC_VERSION}
  if (ask.apiKey) headers['x-api-key'] = ask.apiKey
  const out: Array<{model: string; name?: string}> = []
  let after: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = joinUrl(ask.baseUrl, `/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`)
    const body = await getJson(ask, url, headers)
    for (const m of listOf(body, 'data', url)) {
      const name = m.display_name
      out.push(typeof name === 'string' ? {model: stringField(m, 'id', url), name} : {model: stringField(m, 'id', url)})
    }
    const last = isRecord(body) ? body.last_id : undefined
    if (!isRecord(body) || body.has_more !== true || typeof last !== 'string') break
    after = last
  }
  return out
}

/** `{models: [{name, model, modified_at, size, digest, details}]}`: `name` is what `/api/chat` takes. */
async function ollamaModels(ask: Ask): Promise<Array<{model: string}>> {
  const url = joinUrl(ask.baseUrl, '/api/tags')
  const body = await getJson(ask, url, ask.apiKey ? {authorization: `Bearer ${ask.apiKey}`} : {})
  return listOf(body, 'models', url).map((m) => ({model: stringField(m, 'name', url)}))
}

async function getJson(ask: Ask, url: string, headers: Record<string, string>): Promise<unknown> {
  const res = await postJson({provider: ask.name, url, method: 'GET', headers: {accept: 'application/json', ...headers}, body: undefined, signal: ask.signal, timeoutMs: ask.timeoutMs, secret: ask.apiKey})
  let text = ''
  for await (const chunk of readText(ask.name, res, ask.signal, ask.timeoutMs)) {
    text += chunk
    if (text.length > BODY_CHARS) throw new ListingError(`the answer from ${url} is larger than ${BODY_CHARS / 1024 / 1024} MB`)
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new ListingError(`the answer from ${url} is not JSON`)
  }
}

class ListingError extends Error {}

function listOf(body: unknown, key: string, url: string): Array<Record<string, unknown>> {
  const list = isRecord(body) ? body[key] : undefined
  if (!Array.isArray(list) || !list.every(isRecord)) throw new ListingError(`the answer from ${url} has no "${key}" list`)
  return list
}

function stringField(item: Record<string, unknown>, key: string, url: string): string {
  const value = item[key]
  if (typeof value !== 'string' || value === '') throw new ListingError(`the answer from ${url} lists a model without a "${key}"`)
  return value
}

/** The one line for a provider that gave no list: `PROVIDER: what happened`, naming the URL or the key variable. */
function problemLine(ask: Ask, error: unknown): string {
  if (ask.signal.aborted) return `no answer within ${ask.timeoutMs / 1000} s from ${ask.baseUrl}`
  if (error instanceof ListingError) return error.message
  if (isProviderError(error)) {
    // The adapters' lines start with the provider's name; the listing names it once.
    const line = error.message.startsWith(`${ask.name}: `) ? error.message.slice(ask.name.length + 2) : error.message
    const refused = error.status === 401 || error.status === 403
    return refused && ask.keyVar ? `${line} (jp sent the key in ${ask.keyVar})` : line
  }
  return error instanceof Error ? error.message : String(error)
}
