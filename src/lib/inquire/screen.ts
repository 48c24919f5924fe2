// The renderer seam of the vendored inquirer core (it replaces
// @inquirer/core's ScreenManager, which erases and rewrites the whole prompt
// on every render). A prompt's view is either a string (the text of the
// prompt, cursor after its last character) or a ready-made Frame (rows,
// widths, cursor); the screen hands it to the diffing Painter, which writes
// only what changed — or, on TERM=dumb, to the DumbPainter, which never
// addresses the cursor.
import {claimPromptArea} from '../terminal/owner.js'
import {type CursorShape, DumbPainter, Painter, type Writer} from './render/painter.js'
import {displayWidth, graphemes} from './text.js'

export interface ScreenFrame {
  rows: string[]
  /** The cursor's shape while this frame is up (vi modes); undefined leaves it as it is. */
  cursorShape?: CursorShape
  /** Cells each row occupies (each at most the terminal width). */
  widths: number[]
  cursorRow: number
  cursorCol: number
  /**
   * The prompt's last picture. When it is taller than the terminal the
   * screen erases the frame and writes it whole (relative cursor moves
   * cannot reach rows scrolled off the top), leaving the cursor below it.
   */
  final?: boolean
}

export type View = string | ScreenFrame

export interface ScreenSize {
  columns(): number
  rows(): number
}

export class PromptScreen {
  private readonly painter: Painter | undefined
  private readonly dumbPainter: DumbPainter | undefined
  private left = false
  private last: View | undefined
  private eraseAtEnd = false
  /** The prompt's last picture, should the process leave while it is open. */
  private leaveView: (() => View) | undefined

  constructor(
    private readonly out: Writer,
    private readonly size: ScreenSize,
    dumb: boolean,
  ) {
    if (dumb) this.dumbPainter = new DumbPainter(out, '')
    else this.painter = new Painter(out, size.columns())
  }

  render(view: View): void {
    if (this.left) return
    this.last = view
    if (this.dumbPainter) {
      this.dumbPainter.paint(typeof view === 'string' ? view : view.rows.join('\n'))
      return
    }
    const frame = typeof view === 'string' ? textFrame(view, this.size.columns()) : view
    if (frame.final && frame.rows.length > this.size.rows()) {
      this.painter!.clear()
      this.out.write(frame.rows.join('\r\n') + '\r\n')
      this.left = true
      return
    }
    this.painter!.paint(frame)
  }

  /** The terminal changed size: erase the frame so the next render draws it anew at the new width. */
  resize(): void {
    if (this.painter && !this.left) this.painter.resize(this.size.columns())
  }

  /** Erases the cursor's line and goes to its column 0 (where the first frame starts). */
  eraseLine(): void {
    this.painter?.eraseLine()
  }

  /** Ctrl+L: the next render draws the frame at the top of a cleared screen (one write). */
  clearScreen(): void {
    if (!this.left) this.painter?.clearScreen()
  }

  /** Someone else drew on the screen: the next render draws everything from the cursor's row. */
  forget(): void {
    this.painter?.reset()
  }

  /** Erases the frame, leaving the cursor at column 0 of its first row (to print above it). */
  clear(): void {
    if (!this.left) this.painter?.clear()
  }

  /** Draws the last view again from the cursor (after a clear, or after forget()). */
  redraw(): void {
    if (!this.left && this.last !== undefined) this.render(this.last)
  }

  /**
   * Ends with the frame erased instead of left on screen (upstream's
   * `clearPromptOnDone`, chosen when the prompt ends): a prompt that comes
   * back in the same place after an editor leaves no stale copy.
   */
  clearOnDone(): void {
    this.eraseAtEnd = true
  }

  /** What to draw if the process leaves while the prompt is open (default: what is on screen). */
  onLeave(view: () => View): void {
    this.leaveView = view
  }

  /** The process leaves with the prompt open: its last picture, the cursor on a fresh line below. */
  leave(): void {
    if (this.left) return
    if (this.leaveView) this.render(this.leaveView())
    this.done()
  }

  /** The prompt is over: the cursor goes below the last row, on a fresh line (or the frame is erased). */
  done(): void {
    if (this.left) return
    this.left = true
    if (this.dumbPainter) this.dumbPainter.leave()
    else if (this.eraseAtEnd) this.painter!.clear()
    else this.painter!.leave()
  }

  /**
   * While the prompt is open it owns the terminal (terminal/owner.ts):
   * whatever else is written meanwhile is printed above it and the prompt
   * draws itself again. Returns the release.
   */
  own(): () => void {
    const painter = this.painter
    if (!painter) return () => {}
    return claimPromptArea({
      clear: () => this.clear(),
      redraw: () => this.redraw(),
      leave: () => this.leave(),
      repairAfterEditor: () => {
        // Back to where the prompt stood before the editor (saved there by
        // the editor service); erase whatever a late teardown left.
        painter.backToSavedCursor()
        this.redraw()
      },
    })
  }
}

/**
 * A text view as frame rows: one row per line, long lines wrapped at the
 * terminal width by display width (a grapheme never splits), the cursor
 * after the last character.
 */
export function textFrame(text: string, width: number): ScreenFrame {
  const rows: string[] = []
  const widths: number[] = []
  for (const line of text.split('\n')) {
    let row = ''
    let used = 0
    for (const g of graphemes(line)) {
      const w = displayWidth(g)
      if (used + w > width && used > 0) {
        rows.push(row)
        widths.push(used)
        row = ''
        used = 0
      }
      row += g
      used += w
    }
    rows.push(row)
    widths.push(used)
  }
  const last = rows.length - 1
  return {rows, widths, cursorRow: last, cursorCol: widths[last]}
}
