// The `@` completion list of a reply prompt, without I/O (SPEC §19): opened
// by the `complete` action (Tab) on a mention, or — `complete_mentions =
// "auto"` — once two characters of a mention are typed; narrowed as the
// mention is typed; Up/Down, Ctrl+N/P (and keys bound to complete_next /
// complete_prev) move; Tab, Enter (and keys bound to complete) take the
// chosen path into the buffer without sending; Esc or Ctrl+G close it and
// leave the buffer as it was. The files come from a MentionCompleter (the
// workspace's index, ./file-index.ts).
import type {KeyActionName} from '../../config/key-actions.js'
import {mentionAtCursor, mentionText} from '../../text/mentions.js'
import type {LineEditor} from '../core/line-editor.js'
import type {Key} from '../keys.js'
import type {RankedList} from './match.js'

/** The list shows at most this many paths (SPEC §19). */
export const LIST_ROWS = 8
/** In "auto" mode the list opens once this many characters of a mention are typed. */
export const AUTO_AFTER = 2

export interface MentionCompleter {
  /** The best paths for what is typed after `@`, best first. */
  rank(query: string, limit: number): RankedList
  /** A path was taken into the buffer. */
  remember?(path: string): void
}

/** What the painter shows below the buffer. */
export interface CompletionView {
  items: readonly string[]
  selected: number
  /** How many paths matched in all (more than shown: the list says so). */
  total: number
}

export type CompletionResult = 'changed' | 'moved' | 'none'

const plain = (key: Key) => !key.ctrl && !key.meta
const ctrl = (key: Key, name: string) => key.ctrl && !key.meta && key.name === name

export class MentionCompletion {
  private list: (CompletionView & {start: number}) | undefined
  /** The mention whose list was closed with Esc (auto mode does not open it again while it is typed). */
  private dismissed: number | undefined

  constructor(
    private readonly completer: MentionCompleter,
    private readonly auto: boolean,
  ) {}

  get open(): boolean {
    return this.list !== undefined
  }

  view(): CompletionView | undefined {
    return this.list
  }

  /**
   * A key while the list is open: what it did, or undefined when it is not a
   * list key (it then edits the buffer as usual and `follow` narrows).
   */
  key(key: Key, action: KeyActionName | undefined, editor: LineEditor): CompletionResult | undefined {
    if ((key.name === 'escape' && plain(key)) || ctrl(key, 'g')) {
      this.dismissed = this.list?.start
      this.list = undefined
      return 'moved'
    }
    if ((key.name === 'up' && plain(key)) || ctrl(key, 'p') || action === 'complete_prev') return this.move(-1)
    if ((key.name === 'down' && plain(key)) || ctrl(key, 'n') || action === 'complete_next') return this.move(1)
    if (((key.name === 'tab' || key.name === 'enter') && plain(key) && !key.shift) || action === 'complete') return this.accept(editor)
    return undefined
  }

  /** The `complete` action with the list closed: opens it on the mention at the cursor. */
  start(editor: LineEditor): CompletionResult {
    const m = mentionAtCursor(editor.text, editor.cursor)
    if (!m) return 'none'
    this.dismissed = undefined
    this.rank(m.start, m.path)
    return 'moved'
  }

  /** After a key edited the buffer or moved the cursor: narrow, close, or (auto) open the list. */
  follow(editor: LineEditor): void {
    // Nothing to narrow and nothing to open by itself: no look at the buffer.
    if (!this.list && !this.auto) return
    const m = mentionAtCursor(editor.text, editor.cursor)
    if (!m) {
      this.list = undefined
      this.dismissed = undefined
      return
    }
    if (this.list) this.rank(m.start, m.path)
    else if (this.auto && m.path.length >= AUTO_AFTER && this.dismissed !== m.start) this.rank(m.start, m.path)
  }

  /** The index arrived (or changed) while the list is open: rank again. True when the list is open (it no longer says it is listing). */
  refresh(editor: LineEditor): boolean {
    if (!this.list) return false
    this.follow(editor)
    return true
  }

  private rank(start: number, query: string): void {
    const {paths, total} = this.completer.rank(query, LIST_ROWS)
    this.list = {items: paths, selected: 0, total, start}
  }

  private move(by: number): CompletionResult {
    const list = this.list!
    if (list.items.length === 0) return 'none'
    list.selected = (list.selected + by + list.items.length) % list.items.length
    return 'moved'
  }

  /** Takes the chosen path into the buffer in place of the mention typed so far; a directory keeps the list open for its files. */
  private accept(editor: LineEditor): CompletionResult {
    const list = this.list!
    const path = list.items[list.selected]
    const m = mentionAtCursor(editor.text, editor.cursor)
    if (path === undefined || !m) {
      this.list = undefined
      return 'moved'
    }
    const text = editor.text
    // The whole mention is replaced, also what follows the cursor (and a closing quote).
    const end = m.quoted && text[m.end] === '"' ? m.end + 1 : m.end
    const dir = path.endsWith('/')
    const space = dir || /^\s/.test(text.slice(end)) ? '' : ' '
    const written = mentionText(path) + space
    const cursor = m.start + (dir && written.endsWith('"') ? written.length - 1 : written.length)
    editor.apply({type: 'set_text', text: text.slice(0, m.start) + written + text.slice(end), cursor})
    this.completer.remember?.(path)
    this.list = undefined
    if (dir) this.rank(m.start, path)
    return 'changed'
  }
}
