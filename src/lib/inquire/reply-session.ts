// The reply prompt's state and key handling, without I/O: the line editor,
// the keymap, the Up/Down history walk and the Ctrl+R search. The prompt
// (./inline-reply.ts) feeds it keys and draws `view()`; tests drive it
// directly (the readline differential does).
import type {KeyBindings} from '../config/keymaps.js'
import type {EditMode} from '../config/types.js'
import {MentionCompletion, type CompletionView, type MentionCompleter} from './complete/mention-completion.js'
import {ReverseSearch, type SearchMemory} from './core/history-search.js'
import {LineEditor} from './core/line-editor.js'
import {createEditMode, type EditAction, type EditModeHandler} from './edit-mode/index.js'
import {HistoryWalk} from './reply-history.js'
import type {Key} from './keys.js'

export interface ReplySessionOptions {
  initialText?: string
  editMode?: EditMode
  /** open_editor keys end the prompt with `open-editor`; false: they do nothing. Default true. */
  editorEscape?: boolean
  bindings?: KeyBindings
  /** This conversation's entries, oldest first: Up/Down walk them, and Ctrl+R searches them first. */
  history?: readonly string[]
  /** Older entries Ctrl+R searches after `history` (the workspace's other conversations), oldest first; read when a search starts. */
  olderHistory?: () => readonly string[]
  /** Where the last search text is kept for the next Ctrl+R (default: one per process, as readline). */
  searchMemory?: SearchMemory
  /** `@` completion: the workspace's files, and whether the list opens by itself (`"auto"`). */
  mentions?: {completer: MentionCompleter; auto: boolean}
}

/** What the prompt does after a key (EditAction without the history walk, which the session does itself). */
export type SessionEvent = Exclude<EditAction, {type: 'history-prev' | 'history-next' | 'history-search' | 'complete' | 'complete-next' | 'complete-prev'}>

/** What to draw: the buffer (or, while searching, the match) and the cursor in it. */
export interface SessionView {
  text: string
  cursor: number
  /** While searching: readline's prompt, drawn in place of the message. */
  searchPrompt?: string
  /** The `@` completion list, while it is open. */
  completion?: CompletionView
}

export class ReplySession {
  readonly editor: LineEditor
  readonly mode: EditModeHandler
  private readonly walk: HistoryWalk
  private readonly history: readonly string[]
  private search: {state: ReverseSearch; older: number} | undefined
  private readonly completion: MentionCompletion | undefined

  constructor(private readonly options: ReplySessionOptions = {}) {
    this.editor = new LineEditor(options.initialText ?? '')
    this.mode = createEditMode(options.editMode ?? 'emacs', {editorEscape: options.editorEscape, bindings: options.bindings})
    this.history = options.history ?? []
    this.walk = new HistoryWalk(this.history)
    this.completion = options.mentions ? new MentionCompletion(options.mentions.completer, options.mentions.auto) : undefined
  }

  get searching(): boolean {
    return this.search !== undefined
  }

  view(): SessionView {
    if (!this.search) {
      const completion = this.completion?.view()
      return completion ? {text: this.editor.text, cursor: this.editor.cursor, completion} : {text: this.editor.text, cursor: this.editor.cursor}
    }
    const s = this.search.state
    return {text: s.line, cursor: s.point, searchPrompt: s.prompt}
  }

  handle(key: Key): SessionEvent {
    if (this.search) return this.searchKey(key)
    const completion = this.completion
    if (!completion) return this.act(this.mode.handle(key, this.editor))
    if (completion.open) {
      const listed = completion.key(key, this.mode.actionOf(key), this.editor)
      if (listed !== undefined) return {type: listed}
    }
    const event = this.act(this.mode.handle(key, this.editor))
    if (event.type === 'changed' || event.type === 'moved') completion.follow(this.editor)
    return event
  }

  /** The file index arrived while the list is open: true when what it shows changed. */
  mentionsArrived(): boolean {
    return this.completion?.refresh(this.editor) ?? false
  }

  private act(action: EditAction): SessionEvent {
    switch (action.type) {
      case 'history-prev':
        return this.load(this.walk.prev(this.editor.text))
      case 'history-next':
        return this.load(this.walk.next())
      case 'history-search': {
        const older = this.options.olderHistory?.() ?? []
        const walking = this.walk.position < this.history.length
        const state = new ReverseSearch([...older, ...this.history], this.editor.text, this.editor.cursor, {
          at: older.length + this.walk.position,
          draft: walking ? this.walk.savedDraft : undefined,
          memory: this.options.searchMemory,
        })
        this.search = {state, older: older.length}
        return {type: 'moved'}
      }
      case 'complete':
        return {type: this.completion?.start(this.editor) ?? 'none'}
      case 'complete-next':
      case 'complete-prev':
        // Only the open list moves (handled before the keymap).
        return {type: 'none'}
      default:
        return action
    }
  }

  /**
   * The older entries were still loading when the search began: they join it
   * once they are there (a failed search goes on into them). True when the
   * view changed.
   */
  olderHistoryArrived(): boolean {
    if (!this.search || this.search.older !== 0) return false
    const older = this.options.olderHistory?.() ?? []
    if (older.length === 0) return false
    const before = this.search.state.prompt + this.search.state.line
    this.search.state.prepend(older)
    this.search.older = older.length
    return this.search.state.prompt + this.search.state.line !== before
  }

  private load(text: string | undefined): SessionEvent {
    if (text === undefined) return {type: 'none'}
    this.editor.apply({type: 'set_text', text})
    return {type: 'changed'}
  }

  /** A key while searching: readline's isearch keys by what the key is bound to, else the search ends and the key acts. */
  private searchKey(key: Key): SessionEvent {
    const s = this.search!.state
    this.olderHistoryArrived()
    const action = this.mode.actionOf(key)
    if (key.name === 'char' || key.name === 'paste') {
      s.type(key.text ?? '')
      return {type: 'moved'}
    }
    // Ctrl+G is readline's abort whatever it is bound to; Esc and Ctrl+C abort too (SPEC §18, and one level of the Ctrl+C ladder).
    if (key.ctrl && !key.meta && key.name === 'g') return this.abort()
    if (key.name === 'escape' && !key.ctrl && !key.meta) return this.abort()
    switch (action) {
      case 'cancel':
        return this.abort()
      case 'history_search':
        s.older()
        return {type: 'moved'}
      case 'delete_backward':
        s.backspace()
        return {type: 'moved'}
      case 'kill_bigword_backward':
        s.yankWord()
        return {type: 'moved'}
      case 'yank':
        s.yankLine()
        return {type: 'moved'}
    }
    // Any other key takes the match into the buffer, then does what it does.
    const taken = this.take()
    const next = this.act(this.mode.handle(key, this.editor))
    return taken === 'changed' && (next.type === 'none' || next.type === 'moved') ? {type: 'changed'} : next
  }

  private abort(): SessionEvent {
    this.search = undefined
    return {type: 'moved'}
  }

  /** Ends the search keeping the match (readline's normal end): the buffer becomes it, one undo step. */
  private take(): 'changed' | 'moved' {
    const {state, older} = this.search!
    this.search = undefined
    const {text, cursor} = state.accept()
    const index = state.matchIndex
    // Up/Down go on from the match, as readline's history does after a search.
    if (index !== undefined && index >= older) this.walk.jumpTo(index - older, this.editor.text)
    if (text === this.editor.text) {
      this.editor.setCursor(cursor)
      return 'moved'
    }
    this.editor.apply({type: 'set_text', text, cursor})
    return 'changed'
  }
}
