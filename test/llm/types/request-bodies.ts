// Compile-time check (run by tsc from test/llm/request-types.test.ts): the
// request bodies jp builds must be assignable to the official SDKs' own
// request types. A field jp names wrongly, a wrong literal, or a block shape
// the API does not take is a type error here.
import type {MessageCreateParamsStreaming} from '@anthropic-ai/sdk/resources/messages'
import type {ChatRequest as OllamaChatRequest} from 'ollama'
import type {ChatCompletionCreateParamsStreaming} from 'openai/resources/chat/completions'
import {anthropicRequestBody} from '../../../src/lib/llm/anthropic.js'
import {ollamaRequestBody} from '../../../src/lib/llm/ollama.js'
import {openAIRequestBody} from '../../../src/lib/llm/openai.js'
import type {ChatRequest} from '../../../src/lib/llm/types.js'

declare const req: ChatRequest

export const anthropic: MessageCreateParamsStreaming = anthropicRequestBody(req)
export const openai: ChatCompletionCreateParamsStreaming = openAIRequestBody(req, 'openai')
export const openaiCompatible: ChatCompletionCreateParamsStreaming = openAIRequestBody(req, 'llamacpp')
export const ollama: OllamaChatRequest & {stream: true} = ollamaRequestBody(req)
