// `jp init`'s model question, when a provider answers: the ids the
// configured providers list (llm/models.ts, as `jp models` asks them), in a
// list filtered as you type (inquire/search-list.ts), with "Type a model
// id…" (and Esc) for the typed question and "None" for the offline model.

/**
 * The default model, asked on the terminal: picked from the providers'
 * lists when one answers; typed otherwise, or on Esc or "Type a model id"
 * (a malformed id is named under the answer, which stays to be fixed).
 * Undefined: none (the offline model). Rejects when cancelled (Ctrl+C).
 */
export async function askModelId(cfgArgs: readonly string[], valid: RegExp): Promise<string | undefined> {
  const offered = await offeredModels(cfgArgs)
  if (offered.length > 0) {
    const picked = await pickModel(offered, valid)
    if (picked !== TYPE_ONE) return picked
  }
  const {askQuestion} = await import('../inquire/question.js')
  const typed = await askQuestion('Default model (PROVIDER/MODEL, empty for the offline echo/default):', {
    validate: (answer) => answer.trim() === '' || valid.test(answer.trim()) || `'${answer.trim()}' is not PROVIDER/MODEL (e.g. anthropic/claude-sonnet-4-5)`,
  })
  return typed.trim() || undefined
}

/** The list's row that asks for a typed id instead (a value no model id can be). */
export const TYPE_ONE = '\u0000type'

/** How long init waits for the providers' lists before asking for a typed id. */
const OFFER_TIMEOUT_MS = 3000

/** The ids the configured providers list (those that answer within a few seconds); none when the config does not load. */
export async function offeredModels(cfgArgs: readonly string[]): Promise<string[]> {
  const {listModels} = await import('../llm/models.js')
  const {PROVIDER_NAMES} = await import('../config/providers.js')
  let providers
  try {
    // The user's config (and --cfg): where the providers' URLs and key variables are set. One that does not load offers nothing.
    const {loadWorkspaceConfig} = await import('../conversation/config.js')
    const {findWorkspace} = await import('../conversation/workspace.js')
    const workspace = await findWorkspace({cwd: process.cwd(), env: process.env})
    providers = (await loadWorkspaceConfig({workspace, cfgArgs: [...cfgArgs], cwd: process.cwd(), env: process.env, notice: () => {}})).providers.llm
  } catch {
    return []
  }
  const listings = await listModels(providers, PROVIDER_NAMES, process.env, OFFER_TIMEOUT_MS)
  return listings.flatMap((l) => ('models' in l ? l.models.map((m) => m.id) : []))
}

/**
 * The list: the offered ids (those `valid` accepts) filtered as you type,
 * then "Type a model id…" and "None". Resolves to the id, undefined for
 * None, TYPE_ONE for a typed id (also on Esc); rejects on Ctrl+C.
 */
export async function pickModel(offered: readonly string[], valid: RegExp): Promise<string | undefined> {
  const {searchList} = await import('../inquire/search-list.js')
  const {fuzzyScore} = await import('../conversation/resume.js')
  const {sanitizeUntrusted} = await import('../text/untrusted.js')
  const {isPromptCancelled} = await import('../inquire/types.js')
  const ids = offered.filter((id) => valid.test(id))
  const always = [
    {value: TYPE_ONE, name: 'Type a model id…'},
    {value: '', name: 'None: the offline echo/default'},
  ]
  const source = (term: string) => [
    ...ids
      .map((id, i) => [fuzzyScore(term, id), i, id] as const)
      .filter((row): row is readonly [number, number, string] => row[0] !== undefined)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([, , id]) => ({value: id, name: sanitizeUntrusted(id)})),
    ...always,
  ]
  try {
    const picked = await searchList('Default model (type to filter):', {pageSize: 8, source})
    return picked === '' ? undefined : picked
  } catch (error) {
    if (isPromptCancelled(error) && error.reason === 'cancelled') return TYPE_ONE
    throw error
  }
}
