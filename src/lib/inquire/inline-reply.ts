// InlineReply (SPEC §6): the inline multi-line reply widget.
//
// Decision: this widget drives the terminal streams directly instead of
// being an @inquirer/core `createPrompt` prompt. @inquirer/core re-renders
// the whole prompt on every keystroke (bytes ≈ buffer length: ~11 kB per key
// at 10,000 characters), re-binds AsyncResources per keystroke, and its
// readline edits the line before a keypress handler runs; overriding
// `_ttyWrite` would leave us using nothing of it but the MuteStream, whose
// `end()` ends the real output. The SPEC's keystroke target (< 100 bytes,
// < 0.2 ms at 10,000 characters) needs a diffing painter, so we own the
// loop: raw bytes → KeyDecoder → edit-mode keymap → LineEditor → Frame →
// Painter. The public signature is the SPEC's (`inlineReply(config,
// context)` → Promise<ReplyOutcome>), and the outcome contract is identical.
//
// The widget never opens an editor (Ctrl+X returns `open-editor`), never
// writes to stdout/stderr (only to the context's output or a fresh /dev/tty),
// and undoes every terminal mode it sets on every exit path (tty.ts).
import {LineEditor} from './core/line-editor.js'
import {createEditMode} from './edit-mode/index.js'
import {HistoryWalk, ReplyHistory} from './history.js'
import {buildFrame, type ReplyView} from './render/frame.js'
import {LineLayoutCache} from './render/layout.js'
import {DumbPainter, Painter} from './render/painter.js'
import {runPrompt, seq} from './tty.js'
import type {PromptContext, ReplyOutcome} from './types.js'
import {sanitizeUntrusted} from '../text/untrusted.js'
import {claimPromptArea} from '../printer/terminal-owner.js'
import {ERASE_BELOW, RESTORE_CURSOR} from '../printer/terminal-state.js'

export interface InlineReplyConfig {
  message: string
  initialText?: string
  /** Replaces the default help line ('' hides it). */
  helpMessage?: string
  editMode?: 'emacs' | 'vi'
  /** Ctrl+X → open-editor, advertised in the help line. Default true. */
  editorEscape?: boolean
  /**
   * Earlier replies (oldest first) for Up/Down. A ReplyHistory also receives
   * this prompt's submitted reply or cancelled draft as its newest entry.
   */
  history?: readonly string[] | ReplyHistory
  /** Told the buffer after every change (drafts saved as they are typed); must not block. */
  onChange?: (text: string) => void
}

export interface InlineReplyContext extends PromptContext {
  /** Defaults to process.env (TERM=dumb → plain line input; NO_COLOR → no colour). */
  env?: NodeJS.ProcessEnv
}

/** The default help line (SPEC §6). */
export function defaultReplyHelp(editorEscape: boolean): string {
  return 'Enter to send · Alt+Enter for newline' + (editorEscape ? ' · Ctrl+X to edit in $EDITOR' : '')
}

export function inlineReply(config: InlineReplyConfig, context?: InlineReplyContext): Promise<ReplyOutcome> {
  const env = context?.env ?? process.env
  const editorEscape = config.editorEscape ?? true
  const vi = config.editMode === 'vi'
  const dumb = env.TERM === 'dumb'
  const color = !(env.NO_COLOR !== undefined && env.NO_COLOR !== '')
  const history = config.history instanceof ReplyHistory ? config.history : undefined
  const entries = config.history instanceof ReplyHistory ? config.history.entries() : [...(config.history ?? [])]

  // Messages quote untrusted text (tool names, parser errors): each line sanitized.
  const lines = config.message.split('\n').map((l) => sanitizeUntrusted(l))
  const promptLine = lines.pop()!
  const body = lines.length > 0 ? lines.join('\r\n') + '\r\n' : ''
  const baseHelp = config.helpMessage ?? defaultReplyHelp(editorEscape)

  return runPrompt<ReplyOutcome>(context, (io) => {
    const editor = new LineEditor(config.initialText ?? '')
    const mode = createEditMode(vi ? 'vi' : 'emacs', {editorEscape})
    const walk = new HistoryWalk(entries)
    const cache = new LineLayoutCache()
    const painter = new Painter(io.output, io.columns())
    const dumbPainter = dumb ? new DumbPainter(io.output, promptLine) : undefined
    let scrollTop = 0
    let shape = mode.cursorShape

    if (body) io.write(body)
    if (!dumb) {
      // Pasted newlines must not submit; Shift+Enter must be distinguishable.
      io.session.enable(seq.bracketedPasteOn, seq.bracketedPasteOff)
      io.session.enable(seq.kittyOn, seq.kittyOff)
      io.session.enable('', seq.cursorShow)
      if (vi) io.session.enable(shape === 'bar' ? seq.cursorBar : seq.cursorBlock, seq.cursorDefault)
    }

    const help = (): string => {
      if (!vi || config.helpMessage !== undefined) return baseHelp
      return `${baseHelp} · vi ${shape === 'bar' ? 'insert' : 'normal'}`
    }

    const view = (withHelp: boolean): ReplyView => ({
      message: promptLine,
      text: editor.text,
      cursor: editor.cursor,
      help: withHelp && help() !== '' ? help() : undefined,
      width: io.columns(),
      height: io.rows(),
      color,
    })

    const paint = () => {
      if (dumbPainter) {
        dumbPainter.paint(editor.text)
        return
      }
      const frame = buildFrame(view(true), cache, scrollTop)
      scrollTop = frame.scrollTop
      painter.paint(frame)
    }

    // The final picture: the whole buffer, no help line, cursor below it.
    const finish = () => {
      if (dumbPainter) {
        dumbPainter.leave()
        return
      }
      const frame = buildFrame(view(false), cache, 0, false)
      if (frame.rows.length <= io.rows() && scrollTop === 0) {
        painter.paint({...frame, cursorRow: frame.rows.length - 1, cursorCol: 0})
        painter.leave()
      } else {
        painter.clear()
        io.write(frame.rows.join('\r\n') + '\r\n')
      }
    }

    const loadEntry = (text: string | undefined) => {
      if (text === undefined) return
      editor.setText(text)
      config.onChange?.(editor.text)
      paint()
    }

    paint()

    // While open, this prompt owns the terminal: notices and released text
    // are printed above it and it redraws itself (printer/terminal-owner.ts).
    if (!dumb && io.isTerminal) {
      io.onClose(
        claimPromptArea({
          clear: () => painter.clear(),
          redraw: () => paint(),
          repairAfterEditor: () => {
            // Raw mode is back already (TerminalSession holds it). Back to where the prompt stood before the editor (saved there by
            // the editor service), erase whatever the late teardown left.
            io.write(RESTORE_CURSOR + ERASE_BELOW)
            painter.reset()
            paint()
          },
        }),
      )
    }

    return {
      onKey(key, settle) {
        const action = mode.handle(key, editor)
        if (mode.cursorShape !== shape) {
          shape = mode.cursorShape
          if (vi && !dumb) io.write(shape === 'bar' ? seq.cursorBar : seq.cursorBlock)
          // The help line names the vi mode.
          if (action.type === 'none' || action.type === 'moved' || action.type === 'changed') paint()
        }
        switch (action.type) {
          case 'changed':
            config.onChange?.(editor.text)
            paint()
            return
          case 'moved':
            paint()
            return
          case 'redraw':
            if (!dumb) {
              io.write('\x1b[H\x1b[2J')
              painter.reset()
            }
            paint()
            return
          case 'history-prev':
            loadEntry(walk.prev(editor.text))
            return
          case 'history-next':
            loadEntry(walk.next())
            return
          case 'submit':
            finish()
            history?.record(editor.text)
            settle({value: {type: 'submit', text: editor.text}})
            return
          case 'cancel':
            finish()
            history?.record(editor.text)
            settle({value: {type: 'cancelled'}})
            return
          case 'open-editor':
            // Erased, not left behind: the prompt comes back in this very
            // place after the editor (no stale `Reply: <old text>` copy).
            if (dumbPainter) dumbPainter.leave()
            else painter.clear()
            settle({value: {type: 'open-editor', currentText: editor.text}})
            return
          case 'none':
            return
        }
      },
      onResize() {
        if (dumb) return
        painter.resize(io.columns())
        paint()
      },
      onTerminate(settle) {
        finish()
        history?.record(editor.text)
        settle({value: {type: 'cancelled'}})
      },
    }
  })
}
