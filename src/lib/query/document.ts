// The query document, QUERY_MESSAGE.md (SPEC §9): the query text on top, a
// cut marker, and below it what jp shows for reference — the active
// configuration as an editable TOML block and the recent conversation
// history. Pure text in, text out: no I/O here.
import type {ConversationEvent} from '../conversation/events.js'

export const CUT_MARKER_LINE = '---- EVERYTHING BELOW THIS LINE IS IGNORED ----'
/** Three lines; only the middle one is searched for, so a reflowed frame still cuts. */
export const CUT_MARKER = ['-------- 8< --------', CUT_MARKER_LINE, '-------- >8 --------'].join('\n')
export const CONFIG_HEADING = '# Active Configuration'
export const HISTORY_HEADING = '# Conversation History (last 10 entries)'
export const HISTORY_ENTRIES = 10

const CONFIG_NOTE = [
  '> NOTE: Edit this configuration to apply it to this conversation (from this query on).',
  '>       If it is invalid, the editor re-opens with the error here.',
].join('\n')

export interface QueryDocumentParts {
  /** The query text (written as is; a trailing newline is trimmed). */
  query: string
  /** The TOML text of the configuration block. */
  configToml: string
  /** Shown above the block as `> ERROR: ...` lines (the reason the editor re-opened). */
  error?: string
  /** Rendered history (see `historyText`); omitted when empty. */
  history?: string
}

export interface ParsedQueryDocument {
  /** The text above the cut marker, trimmed. */
  query: string
  /** The TOML block's text, or undefined when the document has none (marker or block removed). */
  configToml?: string
}

export function buildQueryDocument(parts: QueryDocumentParts): string {
  const out: string[] = [parts.query.replace(/\s+$/, ''), '', CUT_MARKER, '', CONFIG_HEADING, '']
  if (parts.error !== undefined) out.push(errorLines(parts.error), '')
  else out.push(CONFIG_NOTE, '')
  const toml = parts.configToml.replace(/\s+$/, '')
  out.push('```toml', ...(toml === '' ? [] : [toml]), '```')
  if (parts.history && parts.history.trim() !== '') out.push('', HISTORY_HEADING, '', parts.history.replace(/\s+$/, ''))
  return out.join('\n') + '\n'
}

/** `> ERROR: first line` then `> rest` for every further line. */
export function errorLines(message: string): string {
  const [first, ...rest] = message.split(/\r?\n/)
  return [`> ERROR: ${first}`, ...rest.map((l) => (l === '' ? '>' : `> ${l}`))].join('\n')
}

export function parseQueryDocument(text: string): ParsedQueryDocument {
  const lines = text.split(/\r?\n/)
  const cut = lines.findIndex((l) => l.includes(CUT_MARKER_LINE))
  if (cut === -1) return {query: text.trim()}
  // The marker's first line belongs to the frame, not to the query.
  let end = cut
  if (end > 0 && /^-+\s*8<\s*-+$/.test(lines[end - 1].trim())) end--
  const query = lines.slice(0, end).join('\n').trim()
  return {query, configToml: configBlock(lines.slice(cut + 1))}
}

/**
 * The TOML fence's body below the configuration heading: from the first
 * ```` ```toml ```` line to the last fence line before the history heading,
 * so fences inside TOML multi-line strings survive.
 */
function configBlock(lines: string[]): string | undefined {
  const heading = lines.findIndex((l) => l.trim() === CONFIG_HEADING)
  if (heading === -1) return undefined
  let stop = lines.findIndex((l, i) => i > heading && l.trim() === HISTORY_HEADING)
  if (stop === -1) stop = lines.length
  const open = lines.findIndex((l, i) => i > heading && i < stop && /^```\s*toml\s*$/.test(l.trim()))
  if (open === -1) return undefined
  let close = -1
  for (let i = stop - 1; i > open; i--) {
    if (lines[i].trim() === '```') {
      close = i
      break
    }
  }
  if (close === -1) return undefined
  return lines.slice(open + 1, close).join('\n')
}

/** The last `HISTORY_ENTRIES` readable events (requests, answers, tool calls, config changes), newest first, as Markdown sections. */
export function historyText(events: readonly ConversationEvent[], opts: {modelOf?: (e: ConversationEvent) => string | undefined} = {}): string {
  const out: string[] = []
  for (const e of events) {
    const when = e.timestamp.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')
    const ev = e as Record<string, unknown>
    switch (e.type) {
      case 'chat_request':
        out.push(`## You on ${when}\n\n${String(ev.content).trim()}`)
        break
      case 'chat_response': {
        const model = opts.modelOf?.(e)
        const who = model ? ` (${model})` : ''
        if (typeof ev.reasoning === 'string') out.push(`## Assistant (reasoning)${who} on ${when}\n\n${ev.reasoning.trim()}`)
        else out.push(`## Assistant${who} on ${when}\n\n${String(ev.message ?? '').trim()}`)
        break
      }
      case 'tool_call_request':
        out.push(`## Tool Call Request on ${when}\n\n\`\`\`json\n${JSON.stringify({id: ev.id, name: ev.name, arguments: ev.arguments}, null, 2)}\n\`\`\``)
        break
      case 'tool_call_response':
        out.push(`## Tool Call ${ev.is_error ? '**Error**' : 'Result'} on ${when}\n\n\`\`\`\n${String(ev.content)}\n\`\`\``)
        break
      case 'config_delta':
        out.push(`## Configuration Change on ${when}\n\n\`\`\`json\n${JSON.stringify(ev.delta, null, 2)}\n\`\`\``)
        break
      default:
        // turn_start and unknown events carry nothing worth reading here
        break
    }
  }
  return out.slice(-HISTORY_ENTRIES).reverse().join('\n\n')
}
