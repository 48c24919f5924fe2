// InlineReply (SPEC §6): the inline multi-line reply widget, an inquirer
// prompt — `createPrompt` with inquirer's hooks — on the vendored core whose
// two I/O seams are patched (vendor/inquirer-core/PATCHES.md): keys come from
// our KeyDecoder, frames are painted incrementally.
//
// What is ours: the line-editing core (LineEditor), the keymaps (emacs, vi),
// the history walk and the frame builder; the prompt wires them: key →
// keymap → LineEditor → re-render → Frame → diffing painter.
//
// The widget never opens an editor (Ctrl+X returns `open-editor`), never
// writes to stdout/stderr (only to the context's output or a fresh /dev/tty),
// and every terminal mode it turns on is undone on every exit path.
import type {PartialDeep} from '@inquirer/type'
import type {Theme} from '@inquirer/core'
import type {KeyActionName} from '../config/key-actions.js'
import {keyLabel, type KeyBindings, type Keymap} from '../config/keymaps.js'
import {ReplyHistory} from './reply-history.js'
import {buildFrame, dim, TOP, type BelowRow, type ReplyView, type ScrollTop} from './render/frame.js'
import type {CompletionView, MentionCompleter} from './complete/mention-completion.js'
import {findMentions} from '../text/mentions.js'
import {BufferLayout} from './render/buffer-layout.js'
import type {PromptTerminal} from './prompt-terminal.js'
import {ReplySession, type SessionEvent} from './reply-session.js'
import type {ScreenFrame} from './screen.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {isPromptTerminated, type PromptContext, type ReplyOutcome} from './types.js'
import {createPrompt, makeTheme, terminal, useEffect, useKeypress, usePrefix, useState} from './vendor/inquirer-core/index.js'

/** Entries of the workspace's other conversations for Ctrl+R, loaded in the background. */
export interface OlderHistory {
  /** Starts loading them (once); called when a prompt opens. Resolves when they are there. */
  prefetch(): Promise<void> | void
  /** What has loaded so far, oldest first. */
  entries(): readonly string[]
}

/** `@` mentions in this prompt (SPEC §19): completion from the workspace's files, and the check before sending. */
export interface InlineMentions {
  /** The workspace's files: listed in the background when the prompt opens. */
  index: MentionCompleter & {refresh(): Promise<void>; readonly ready: boolean}
  /** `editor.inline.complete_mentions = "auto"`: the list opens after two typed characters of a mention. */
  auto: boolean
  /**
   * Whether the mentions of a text about to be sent can be attached: one line
   * naming the first that cannot (the prompt stays open with it), or
   * undefined. Absent: the text's mentions are not attached by this prompt's caller.
   */
  check?(text: string): Promise<string | undefined>
}

export interface InlineReplyConfig {
  message: string
  initialText?: string
  /** Replaces the default help line ('' hides it). */
  helpMessage?: string
  editMode?: 'emacs' | 'vi'
  /** open_editor (Ctrl+X, Ctrl+G) → open-editor, advertised in the help line. Default true. */
  editorEscape?: boolean
  /** The user's key bindings (`editor.inline.keys`), over the default tables. */
  keys?: KeyBindings
  /** What the help line says Ctrl+X opens (the editor's program, the variable or the plugin backend). Default `$EDITOR`. */
  editorName?: string
  /**
   * Earlier replies (oldest first) for Up/Down and Ctrl+R. A ReplyHistory also
   * receives this prompt's submitted reply or cancelled draft as its newest entry.
   */
  history?: readonly string[] | ReplyHistory
  /** What Ctrl+R searches after `history`: the workspace's other conversations. */
  olderHistory?: OlderHistory
  /** Told the buffer after every change (drafts saved as they are typed); must not block. */
  onChange?: (text: string) => void
  /** Shown dim while the buffer is empty, never part of it (inquirer's `default` look). */
  placeholder?: string
  /** An inquirer theme; only `prefix` is used (none by default). */
  theme?: PartialDeep<Theme>
  /** The prompt leaves nothing behind when it ends (an overlay at the bottom of the answer: `Queue:`). */
  eraseOnDone?: boolean
  /** `@` completion and the mention check; absent: `@` is plain text here. */
  mentions?: InlineMentions
}

export interface InlineReplyContext extends PromptContext {
  /** Defaults to process.env (TERM=dumb → plain line input; NO_COLOR → no colour). */
  env?: NodeJS.ProcessEnv
}

/** The default help line (SPEC §6) of the default keys. */
export function defaultReplyHelp(editorEscape: boolean, editorName = '$EDITOR'): string {
  return 'Enter to send · Alt+Enter for newline' + (editorEscape ? ` · Ctrl+X to edit in ${editorName}` : '')
}

/**
 * The help line for the keys of the table in use: only keys that work now
 * (no editor clause without the escape or without a key for it), each named
 * as it is bound (Enter bound to newline in vi insert mode says so).
 */
export function keysHelp(keymap: Keymap, editorEscape: boolean, editorName: string): string {
  const clause = (action: KeyActionName, what: string) => {
    const key = keyLabel(keymap, action)
    return key ? `${key} ${what}` : undefined
  }
  return [clause('submit', 'to send'), clause('newline', 'for newline'), editorEscape ? clause('open_editor', `to edit in ${editorName}`) : undefined]
    .filter((c) => c !== undefined)
    .join(' · ')
}

/** While searching: the keys of the search (readline draws no help line; jp keeps its own). */
function searchHelp(keymap: Keymap): string {
  const older = keyLabel(keymap, 'history_search') ?? 'Ctrl+R'
  const send = keyLabel(keymap, 'submit')
  return [`${older} for older`, send ? `${send} to send` : undefined, 'Esc to go back'].filter((c) => c !== undefined).join(' · ')
}

interface ReplyPromptConfig {
  /** The prompt line (the message's last line; earlier lines are the preamble). */
  promptLine: string
  initialText: string
  /** The caller's own help line, if any ('' hides it). */
  customHelp: string | undefined
  vi: boolean
  editorEscape: boolean
  editorName: string
  keys: KeyBindings | undefined
  color: boolean
  history: ReplyHistory | undefined
  entries: readonly string[]
  olderHistory: OlderHistory | undefined
  onChange?: (text: string) => void
  placeholder?: string
  /** Told the buffer when the prompt ends, however it ends. */
  onEnd: (text: string) => void
  theme?: PartialDeep<Theme>
  eraseOnDone?: boolean
  mentions?: InlineMentions
}

/** No prefix before the message unless a theme asks for one. */
const replyTheme = {prefix: ''}

const replyPrompt = createPrompt<ReplyOutcome, ReplyPromptConfig>((config, done) => {
  const term = terminal()
  // The prompt's mutable parts, made once (few hooks: each costs on every keystroke).
  const [session] = useState(() => ({
    reply: new ReplySession({
      initialText: config.initialText,
      editMode: config.vi ? 'vi' : 'emacs',
      editorEscape: config.editorEscape,
      bindings: config.keys,
      history: config.entries,
      olderHistory: config.olderHistory ? () => config.olderHistory!.entries() : undefined,
      mentions: config.mentions ? {completer: config.mentions.index, auto: config.mentions.auto} : undefined,
    }),
    /** Why the last send was refused (a mention that cannot be attached), shown under the buffer until the next key. */
    problem: undefined as string | undefined,
    /** A send waits for its mentions to be checked: keys wait too. */
    checking: false,
    /** The buffer's lines and their layouts, following the editor's changes. */
    layout: new BufferLayout(),
    /** The same for what a search shows (history entries, not the buffer). */
    searchLayout: new BufferLayout(),
    theme: makeTheme(replyTheme, config.theme),
    /** The viewport's first row, carried from frame to frame. */
    scrollTop: TOP as ScrollTop,
    /** Set when the prompt ends by a key (its final frame comes from the view). */
    ended: false,
    /** An open-editor outcome hands the text on; it is not a draft to remember. */
    keepDraft: true,
    /** Ended by Ctrl+C or Ctrl+D: the last picture says so. */
    cancelled: false,
    /** The help line of each state (table, search), made once: the keys do not change while the prompt is open. */
    helps: new Map<string, string>(),
    help(shape: 'bar' | 'block'): string {
      const key = `${this.reply.searching}|${this.reply.mode.table}|${shape}`
      let line = this.helps.get(key)
      if (line === undefined) {
        line = helpLine(config, this.reply, shape)
        this.helps.set(key, line)
      }
      return line
    },
  }))
  const {reply} = session
  const layout = () => (reply.searching ? session.searchLayout : session.layout)
  const {editor, mode} = reply
  // The editor is mutable: a new revision number is what re-renders it.
  const [, setRevision] = useState(0)
  const [status, setStatus] = useState<'idle' | 'done'>('idle')
  const [shape, setShape] = useState(mode.cursorShape)
  const prefix = usePrefix({status, theme: session.theme})
  const message = prefix ? `${prefix} ${config.promptLine}` : config.promptLine

  const view = (withHelp: boolean): ReplyView => {
    const shown = reply.view()
    const help = withHelp ? session.help(shape) : ''
    return {
      message: shown.searchPrompt ?? message,
      text: shown.text,
      cursor: shown.cursor,
      source: shown.searchPrompt === undefined ? editor : undefined,
      help: help !== '' ? help : undefined,
      // Only while the prompt is live (and not searching): the last picture shows what was sent.
      placeholder: withHelp && !shown.searchPrompt ? config.placeholder : undefined,
      below: withHelp ? belowRows(shown.completion, session.problem, config.mentions?.index.ready ?? false) : undefined,
      width: term.columns(),
      height: term.rows(),
      color: config.color,
    }
  }
  const finalFrame = () => lastFrame(view(false), layout(), session.cancelled ? CANCELLED_MARK : undefined)
  const plain = () => {
    const shown = reply.view()
    const head = shown.searchPrompt ?? message
    return head ? `${head} ${shown.text}` : shown.text
  }

  useEffect((t) => {
    if (config.eraseOnDone) t.screen.clearOnDone()
    // Loaded in the background; a search already open takes them in when they arrive.
    void config.olderHistory?.prefetch()?.then(() => {
      if (!session.ended && reply.olderHistoryArrived()) setRevision((r) => r + 1)
    })
    // The files for `@` completion: listed now, in the background (the prompt never waits for them).
    void config.mentions?.index.refresh().then(() => {
      if (!session.ended && reply.mentionsArrived()) setRevision((r) => r + 1)
    })
    if (!t.dumb) {
      // Pasted newlines must not submit; Shift+Enter must be distinguishable.
      t.enable('bracketedPaste')
      t.enable('kittyKeyboard')
      t.enable('visibleCursor')
      // vi's frames carry the mode's cursor shape (the painter draws it).
      if (config.vi) t.enable('cursorShapes')
      // Left open by an exit (SIGQUIT, a crash): the buffer stays, the help line goes.
      t.screen.onLeave(finalFrame)
    }
    return () => {
      config.onEnd(editor.text)
      if (session.keepDraft) config.history?.record(editor.text)
      // Ended by a signal, a hang-up or an abort: draw the last picture too.
      if (!session.ended && !t.dumb) t.screen.render(finalFrame())
    }
  }, [])
  useKeypress((key, t) => {
    if (session.checking) return
    if (session.problem !== undefined) {
      session.problem = undefined
      setRevision((r) => r + 1)
    }
    const event = reply.handle(key)
    // The next frame names the new mode and carries its cursor shape.
    if (mode.cursorShape !== shape) setShape(mode.cursorShape)
    const end = (outcome: ReplyOutcome) => {
      session.ended = true
      session.keepDraft = outcome.type !== 'open-editor'
      session.cancelled = outcome.type === 'cancelled'
      // The last picture, unless the frame is about to be erased for the editor.
      if (outcome.type !== 'open-editor') setStatus('done')
      done(outcome)
    }
    // Ctrl+C is the ladder's key; any other cancel (Ctrl+D on an empty buffer) is not.
    const cancelReason = key.ctrl && !key.meta && key.name === 'c' ? 'interrupted' : 'cancelled'
    const bump = () => setRevision((r) => r + 1)
    const check = config.mentions?.check
    if (event.type === 'submit' && check && findMentions(editor.text).length > 0) {
      // Nothing is sent, and nothing lost, while a mention cannot be attached.
      session.checking = true
      void check(editor.text).then(
        (problem) => {
          session.checking = false
          if (session.ended) return
          if (problem === undefined) return applyEvent(event, {editor, onChange: config.onChange, term: t, bump, end, cancelReason})
          session.problem = problem
          bump()
        },
        (error: unknown) => {
          session.checking = false
          session.problem = String(error)
          bump()
        },
      )
      return
    }
    applyEvent(event, {editor, onChange: config.onChange, term: t, bump, end, cancelReason})
  })

  if (term.dumb) return plain()
  const cursorShape = config.vi ? shape : undefined
  if (status === 'done') return {...finalFrame(), cursorShape}
  const frame = buildFrame(view(true), layout(), session.scrollTop)
  session.scrollTop = frame.scrollTop
  frame.cursorShape = cursorShape
  return frame
})

/** The rows under the buffer: a refused send's reason, or the `@` completion list (names sanitized: they are the disk's). */
function belowRows(list: CompletionView | undefined, problem: string | undefined, ready: boolean): BelowRow[] | undefined {
  if (problem !== undefined) return [{text: `⚠ ${sanitizeUntrusted(problem)}`, style: 'plain'}]
  if (!list) return undefined
  if (list.items.length === 0) return [{text: ready ? 'no matching files' : 'listing files…', style: 'dim'}]
  return list.items.map((path, i) => ({text: sanitizeUntrusted(path), style: i === list.selected ? 'selected' : 'plain'}))
}

/** Ends the last picture of a reply cancelled with a key, so the screen says what became of it. */
const CANCELLED_MARK = '(cancelled)'

/** The last picture: the whole buffer, no help line, cursor below it; `mark` (dim) after the buffer. */
function lastFrame(view: ReplyView, layout: BufferLayout, mark?: string): ScreenFrame {
  const frame = buildFrame(view, layout, TOP, false)
  if (mark !== undefined) {
    const shown = dim(mark, view.color)
    const last = frame.rows.length - 1
    // On the buffer's last row when it fits, else on a row of its own.
    if (frame.widths[last] + 1 + mark.length <= view.width - 1) {
      frame.rows = [...frame.rows.slice(0, last), `${frame.rows[last]} ${shown}`]
      frame.widths = [...frame.widths.slice(0, last), frame.widths[last] + 1 + mark.length]
    } else {
      frame.rows = [...frame.rows, shown]
      frame.widths = [...frame.widths, mark.length]
    }
  }
  return {...frame, cursorRow: frame.rows.length - 1, cursorCol: 0, final: true}
}

/** The help line; in vi mode (with the default help) it names the mode. */
function helpLine(config: ReplyPromptConfig, reply: ReplySession, shape: 'bar' | 'block'): string {
  if (reply.searching) return searchHelp(reply.mode.keymap)
  if (config.customHelp !== undefined) return config.customHelp
  const keys = keysHelp(reply.mode.keymap, config.editorEscape, config.editorName)
  if (!config.vi) return keys
  return `${keys} · vi ${shape === 'bar' ? 'insert' : 'normal'}`
}

/** What one session event does to the open prompt (the hooks stay in the prompt's body). */
function applyEvent(
  event: SessionEvent,
  p: {
    editor: ReplySession['editor']
    onChange?: (text: string) => void
    term: PromptTerminal
    bump(): void
    end(outcome: ReplyOutcome): void
    cancelReason: 'interrupted' | 'cancelled'
  },
): void {
  const {editor} = p
  switch (event.type) {
    case 'changed':
      p.onChange?.(editor.text)
      p.bump()
      return
    case 'moved':
      p.bump()
      return
    case 'redraw':
      // The next frame is drawn on a cleared screen.
      if (!p.term.dumb) p.term.screen.clearScreen()
      p.bump()
      return
    case 'submit':
      p.end({type: 'submit', text: editor.text})
      return
    case 'cancel':
      p.end({type: 'cancelled', reason: p.cancelReason, text: editor.text})
      return
    case 'open-editor':
      // Erased, not left behind: the prompt comes back in this very place
      // after the editor (no stale `Reply: <old text>` copy).
      p.term.screen.clearOnDone()
      p.end({type: 'open-editor', currentText: editor.text})
      return
    case 'none':
      return
  }
}

export async function inlineReply(config: InlineReplyConfig, context?: InlineReplyContext): Promise<ReplyOutcome> {
  const env = context?.env ?? process.env
  const editorEscape = config.editorEscape ?? true
  // Messages quote untrusted text (tool names, parser errors): each line sanitized.
  const lines = config.message.split('\n').map((l) => sanitizeUntrusted(l))
  const promptLine = lines.pop()!
  const history = config.history instanceof ReplyHistory ? config.history : undefined
  // The buffer as the prompt left it, for an end from outside.
  let lastText = config.initialText ?? ''
  try {
    return await replyPrompt(
      {
        promptLine,
        initialText: config.initialText ?? '',
        customHelp: config.helpMessage,
        vi: config.editMode === 'vi',
        editorEscape,
        // The name comes from config files and variables: shown, so sanitized.
        editorName: sanitizeUntrusted(config.editorName ?? '$EDITOR'),
        keys: config.keys,
        olderHistory: config.olderHistory,
        color: !(env.NO_COLOR !== undefined && env.NO_COLOR !== ''),
        history,
        entries: history ? history.entries() : [...((config.history as readonly string[] | undefined) ?? [])],
        onChange: config.onChange,
        placeholder: config.placeholder,
        onEnd: (text) => (lastText = text),
        theme: config.theme,
        eraseOnDone: config.eraseOnDone,
        mentions: config.mentions,
      },
      {...context, env, preamble: lines.length > 0 ? lines.join('\r\n') + '\r\n' : undefined},
    )
  } catch (error) {
    // A terminating signal, a hang-up or an abort ends the reply; nobody pressed a key.
    if (isPromptTerminated(error)) return {type: 'cancelled', reason: 'terminated', text: lastText}
    throw error
  }
}
