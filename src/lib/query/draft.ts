// Composing a query in the user's editor (SPEC §9). This is the query
// command's policy on top of the editor service: it seeds QUERY_MESSAGE.md,
// hands the path to `editFile` like any other caller, and reads the query and
// the edited configuration back. The draft is the user's text: it is restored
// when the editor is cancelled and kept until the turn it starts succeeds.
import {mkdir, rename, rm} from 'node:fs/promises'
import {dirname} from 'node:path'
import {isDeepStrictEqual} from 'node:util'
import type {PartialConfig} from '../config/load.js'
import type {Config} from '../config/types.js'
import type {ConversationEvent} from '../conversation/events.js'
import type {EditorBackend} from '../editor/types.js'
import {ensurePrivateDir, readText, writeFileDurably} from '../conversation/files.js'
import {buildQueryDocument, historyText, parseQueryDocument} from './document.js'
import {errorMessage} from '../text/one-line.js'

export interface ComposeOptions {
  editor: EditorBackend
  /** QUERY_MESSAGE.md (`ConversationStore.draftPath`). */
  draftPath: string
  /** The editor's working directory: the workspace root. */
  cwd: string
  /** Query text given on the command line (with `-e`); seeds the document. */
  seed: string
  /** The effective configuration, shown as the editable block. */
  config: Config
  /** The model this query would use (a `--model` flag or the config), shown in the block. */
  modelId: string
  /** The conversation's events, for the history section (none for a new conversation). */
  events?: readonly ConversationEvent[]
  /**
   * The seed is the inline buffer (Ctrl+X): it replaces the draft's query
   * text instead of joining it, since it is the user's latest word on it.
   */
  bufferWins?: boolean
}

export type ComposeResult =
  /** `delta` is set when the configuration block was changed: apply it and record it. */
  | {type: 'query'; text: string; delta?: PartialConfig}
  /** Nothing above the marker: the draft is removed and nothing is sent. */
  | {type: 'empty'}
  /** The editor was cancelled: the draft is back to what it was before. */
  | {type: 'cancelled'}

/** The configuration block jp shows: the model and its reasoning setting. */
export function activeConfigToml(modelId: string, reasoning: string | boolean | undefined): string {
  const lines = ['[assistant.model]', `id = ${JSON.stringify(modelId)}`]
  if (reasoning === undefined) lines.push('# parameters.reasoning = "medium"   # true, false, "low", "medium" or "high"')
  else lines.push(`parameters.reasoning = ${JSON.stringify(reasoning)}`)
  return lines.join('\n')
}

/** Opens the editor on the query document until it yields a query, an empty document or a cancel. */
export async function composeQuery(opts: ComposeOptions): Promise<ComposeResult> {
  const before = await readDraft(opts.draftPath)
  const shownToml = activeConfigToml(opts.modelId, opts.config.assistant.model.parameters?.reasoning)
  const history = opts.events ? historyText(opts.events) : undefined
  const source = `${opts.draftPath} (Active Configuration)`

  // An existing draft (even one a failed turn left behind) is the user's text
  // and wins; an empty one is seeded like a missing one. Its configuration
  // block stays as the user left it: a broken one opens with its error.
  const priorDoc = before !== undefined && before.trim() !== '' ? parseQueryDocument(before) : undefined
  let query = opts.bufferWins ? opts.seed.trim() : joinSeed(priorDoc?.query ?? '', opts.seed)
  let configToml = priorDoc?.configToml ?? shownToml
  let error: string | undefined
  if (priorDoc?.configToml !== undefined) error = await configProblem(priorDoc.configToml, source)

  for (;;) {
    await writeDraft(opts.draftPath, buildQueryDocument({query, configToml, error, history}))
    let outcome: 'saved' | 'cancelled'
    try {
      outcome = await opts.editor.editFile({paths: [opts.draftPath], cwd: opts.cwd})
    } catch (e) {
      await restoreDraft(opts.draftPath, before)
      throw e
    }
    if (outcome === 'cancelled') {
      await restoreDraft(opts.draftPath, before)
      return {type: 'cancelled'}
    }

    const doc = parseQueryDocument((await readDraft(opts.draftPath)) ?? '')
    let delta: PartialConfig | undefined
    try {
      delta = await draftDelta(opts, doc.configToml)
    } catch (e) {
      // Re-open with the user's text and block kept and the reason above it.
      query = doc.query
      configToml = doc.configToml ?? configToml // (it throws only for a block that is there)
      error = errorMessage(e)
      continue
    }

    if (doc.query === '') {
      await rm(opts.draftPath, {force: true})
      return {type: 'empty'}
    }
    return {type: 'query', text: doc.query, ...(delta ? {delta} : {})}
  }
}

/**
 * Moves the draft of a conversation not created yet to the conversation's
 * own draft path, so a failed first turn is re-seeded by the next `jp query`
 * (which continues that conversation).
 */
export async function adoptDraft(from: string, to: string): Promise<void> {
  if (from === to) return
  await mkdir(dirname(to), {recursive: true, mode: 0o700})
  try {
    await rename(from, to)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
}

/**
 * Keeps the text of a query that never got an answer as the draft, so the
 * retry starts from it (\`jp query\` opens it in the editor) and nothing typed
 * is lost; a draft already holding it is left as it is.
 */
export async function keepUnsentQuery(path: string, text: string): Promise<void> {
  const before = await readDraft(path)
  const prior = before !== undefined && before.trim() !== '' ? parseQueryDocument(before).query : ''
  if (prior !== '' && joinSeed(prior, text) === prior) return
  await writeDraft(path, `${joinSeed(prior, text)}\n`)
}

/** After a successful turn: removes the draft when it holds the query just sent (a kept, now answered query). */
export async function discardSentDraft(path: string, text: string): Promise<void> {
  const before = await readDraft(path)
  if (before !== undefined && parseQueryDocument(before).query === text.trim()) await rm(path, {force: true})
}

/** Why a draft's configuration block cannot be used (undefined when it parses). */
export async function configProblem(toml: string, source: string): Promise<string | undefined> {
  const {parseConfigToml} = await import('../config/load.js')
  try {
    await parseConfigToml(toml, source)
    return undefined
  } catch (e) {
    return errorMessage(e)
  }
}

/** The draft as the user left it: its text (undefined when missing or blank) and parsed parts. */
export async function readQueryDraft(path: string): Promise<{text: string; query: string; configToml?: string} | undefined> {
  const text = await readDraft(path)
  if (text === undefined || text.trim() === '') return undefined
  return {text, ...parseQueryDocument(text)}
}

/**
 * Records an inline-composed query as the draft (keeping the block and what
 * else the user had there), so a failed turn keeps it like an edited one.
 */
export async function writeInlineQuery(opts: Pick<ComposeOptions, 'draftPath' | 'config' | 'modelId' | 'events'>, text: string): Promise<void> {
  const prior = await readQueryDraft(opts.draftPath)
  const configToml = prior?.configToml ?? activeConfigToml(opts.modelId, opts.config.assistant.model.parameters?.reasoning)
  const history = opts.events ? historyText(opts.events) : undefined
  await writeDraft(opts.draftPath, buildQueryDocument({query: text, configToml, history}))
}

/** The change a draft's block makes to the configuration jp would show (undefined: none). */
export async function draftDelta(opts: Pick<ComposeOptions, 'draftPath' | 'config' | 'modelId'>, configToml: string | undefined): Promise<PartialConfig | undefined> {
  if (configToml === undefined) return undefined
  const {parseConfigToml} = await import('../config/load.js')
  const source = `${opts.draftPath} (Active Configuration)`
  const shown = await parseConfigToml(activeConfigToml(opts.modelId, opts.config.assistant.model.parameters?.reasoning), 'the active configuration')
  const edited = await parseConfigToml(configToml, source)
  return sameValue(edited, shown) ? undefined : edited
}

/** Removes the draft once the turn it started has succeeded. */
export async function discardDraft(path: string): Promise<void> {
  await rm(path, {force: true})
}

function joinSeed(prior: string, seed: string): string {
  const given = seed.trim()
  if (prior === '') return given
  if (given === '' || prior.includes(given)) return prior
  // Nothing typed is lost: the kept draft first, then what was given now.
  return `${prior}\n\n${given}`
}

// The draft lives in the user data dir: a link planted there is refused
// (files.ts: one line naming it), never read or written through.
async function readDraft(path: string): Promise<string | undefined> {
  return readText(path)
}

async function writeDraft(path: string, text: string): Promise<void> {
  await ensurePrivateDir(dirname(path))
  await writeFileDurably(path, text)
}

async function restoreDraft(path: string, before: string | undefined): Promise<void> {
  if (before === undefined) await rm(path, {force: true})
  else await writeDraft(path, before)
}

// smol-toml tables may not be plain objects; compare their JSON shape.
function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))
}
