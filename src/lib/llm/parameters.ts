// The model parameters of the config schema (`assistant.model.parameters`),
// checked against the wire format that will carry them: each one either
// reaches the provider under that provider's own name, or the query stops
// before any request with one line naming the key. Pure, so the table of
// what goes where is tested without a server.
import type {Wire} from '../config/providers.js'
import type {ReasoningSetting} from './types.js'

export type {Wire} from '../config/providers.js'

export interface ModelParameters {
  reasoning?: ReasoningSetting
  max_tokens?: number
  temperature?: number
}

const LEVELS: Record<Wire, readonly string[]> = {
  anthropic: ['minimal', 'low', 'medium', 'high'],
  openai: ['minimal', 'low', 'medium', 'high'],
  ollama: ['low', 'medium', 'high'],
}

const MAX_TEMPERATURE: Record<Wire, number | undefined> = {anthropic: 1, openai: 2, ollama: undefined}

/** Whether a reasoning setting asks for reasoning at all (`false`/`"false"` do not). */
export function reasoningOn(r: ReasoningSetting | undefined): boolean {
  return r !== undefined && r !== false && String(r).toLowerCase() !== 'false'
}

/**
 * The problem with `params` for `provider` (speaking `wire`), as one line
 * naming the key, or undefined when every parameter has a place to go.
 */
export function modelParametersProblem(wire: Wire, provider: string, params: ModelParameters | undefined): string | undefined {
  if (!params) return undefined
  const key = (name: string) => `assistant.model.parameters.${name}`
  const {reasoning, max_tokens: maxTokens, temperature} = params

  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    return `${key('max_tokens')} = ${maxTokens}: expected a positive whole number`
  }

  if (temperature !== undefined) {
    const max = MAX_TEMPERATURE[wire]
    if (!(temperature >= 0) || (max !== undefined && temperature > max)) {
      return `${key('temperature')} = ${temperature}: ${provider} takes a temperature from 0 to ${max ?? 'any positive number'}`
    }
  }

  if (reasoning !== undefined && typeof reasoning === 'string' && reasoningOn(reasoning)) {
    const level = reasoning.toLowerCase()
    const levels = LEVELS[wire]
    const budget = Number(reasoning)
    const isBudget = reasoning.trim() !== '' && Number.isFinite(budget)
    if (wire === 'anthropic') {
      if (isBudget && !(Number.isInteger(budget) && budget >= 1024)) {
        return `${key('reasoning')} = "${reasoning}": an Anthropic thinking budget is a whole number of tokens, at least 1024`
      }
      if (!isBudget && !levels.includes(level)) {
        return `${key('reasoning')} = "${reasoning}": expected true, false, a token budget, or one of ${levels.join(', ')}`
      }
    } else if (!levels.includes(level)) {
      const what = isBudget ? `${provider} has no thinking budget` : `${provider} does not know this level`
      return `${key('reasoning')} = "${reasoning}": ${what} (use true, false or one of ${levels.join(', ')})`
    }
  }

  // Claude's extended thinking only runs at temperature 1: any other value is a 400 on every request.
  if (wire === 'anthropic' && reasoningOn(reasoning) && temperature !== undefined && temperature !== 1) {
    return `${key('temperature')} = ${temperature}: Anthropic allows only 1 while ${key('reasoning')} is on`
  }
  return undefined
}
