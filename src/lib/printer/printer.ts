// The output channels (SPEC §1.3, §11):
//   stdout — assistant text only (or, with --format json, NDJSON events only);
//   stderr — chrome: notices, tool headers, warnings, the reasoning display;
//   tty    — prompts, on a lazily opened /dev/tty writer (never stdout/stderr).
// Model text is sanitized when its channel is a terminal ("shown on a
// terminal"); piped or redirected stdout gets the model's text unaltered, as
// `git log | less -R` gets git's. Chrome (notices, tool headers, errors) and
// NDJSON events always pass the one sanitizer for untrusted text
// (text/untrusted.ts): they quote tool names, arguments, titles and provider
// error bodies, and a redirected stderr is still read on a terminal later.
//
// The first write of a macrotask goes out at once (the first token after
// the wait, a notice: what the user is waiting for); the writes after it in
// the same macrotask are coalesced and flushed on the next one, or at once
// when the buffer grows past a threshold or the other channel is written (so
// stdout and stderr interleave in call order on a shared terminal).
// Backpressure: `writable()` resolves when no channel is over its high-water
// mark; the stream loop awaits it between events.
import {createSanitizer, type Sanitizer} from './sanitize.js'
import type {Hurry, MarkdownStream, PrinterMarkdown} from './markdown.js'
import {registerRestore} from '../terminal/restore.js'
import {TerminalLine} from '../terminal/line.js'
import {eraseRowsAbove} from '../terminal/live-rows.js'
import {onPromptClaim, onPromptRelease, openPrompt, showFooter, shownFooter, writeAbovePrompt} from '../terminal/owner.js'
import {openTtyWriteStream} from '../terminal/tty.js'
import {QueueLine} from './queue-line.js'
import {StatusLine, type StatusText} from './status-line.js'
import {sanitizeUntrusted, untrustedJson} from '../text/untrusted.js'

export type OutputFormat = 'text' | 'json'

/** An NDJSON event on stdout in --format json. */
export type PrinterEvent =
  | {type: 'text'; text: string}
  | {type: 'reasoning'; text: string}
  | {type: 'tool_call'; id: string; name: string; arguments: unknown}
  | {type: 'tool_result'; id: string; content: string; is_error: boolean}
  | {type: 'notice'; message: string}
  | {type: 'error'; message: string}
  | {type: string; [key: string]: unknown}

export interface PrinterOptions {
  stdout?: NodeJS.WritableStream
  stderr?: NodeJS.WritableStream
  format?: OutputFormat
  /** Default: the stream's own isTTY. */
  stdoutIsTTY?: boolean
  stderrIsTTY?: boolean
  /** Keep SGR colour on terminals. Default: colorEnabled(process.env). */
  color?: boolean
  /** Opens the prompt writer; default /dev/tty. Test seam. */
  openPromptWriter?: () => NodeJS.WritableStream | undefined
  /**
   * Renders model text as markdown where given (markdownFor: terminals only);
   * the text is sanitized first, with every sequence dropped.
   */
  markdown?: PrinterMarkdown
}

/** NO_COLOR (any non-empty value) and TERM=dumb turn colour off. */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !(env.NO_COLOR !== undefined && env.NO_COLOR !== '') && env.TERM !== 'dumb'
}

/** Resolves `--format auto|text|json`: auto is text (json only on request). */
export function resolveFormat(flag: string | undefined): OutputFormat {
  return flag === 'json' ? 'json' : 'text'
}


const FLUSH_AT = 64 * 1024
/** Ready-made bytes at least this long are written as they are rather than queued as text. */
const DIRECT_AT = 4 * 1024

class Channel {
  // A rope string: V8 concatenation is cheaper than an array + join here.
  private pending = ''
  private scheduled: NodeJS.Immediate | undefined
  /** Set by a write sent at once, until the next macrotask: the writes after it in this one are gathered. */
  private gathering: NodeJS.Immediate | undefined
  private blocked = false
  private drainWaiters: (() => void)[] = []
  private lastWrite: Promise<void> = Promise.resolve()
  /** Where writes are encoded (see `send`), and whether the stream still holds it. */
  private bytes = Buffer.allocUnsafeSlow(0)
  private bytesBusy = false
  /** Whether the last byte written ended a line. */
  atLineStart = true

  constructor(
    readonly stream: NodeJS.WritableStream,
    /** Flushes the other channel, so at most one channel ever holds data. */
    private readonly onBeforeWrite: () => void,
    /** The stream is the terminal a prompt may be open on. */
    private readonly onTerminal = false,
    /** The terminal's line (only with onTerminal). */
    readonly line?: TerminalLine,
  ) {
    // A reader that went away (`| head -n 1`: EPIPE) must neither crash jp
    // nor leave the stream loop waiting for a 'drain' that never comes.
    stream.on?.('error', (error: NodeJS.ErrnoException) => this.close(error))
  }

  /** Set once the stream failed (its reader went away); later writes are dropped. */
  closed: NodeJS.ErrnoException | undefined
  /** Told once when the stream fails. */
  onClosed: ((error: NodeJS.ErrnoException) => void) | undefined

  private close(error: NodeJS.ErrnoException): void {
    if (this.closed) return
    this.closed = error
    this.pending = ''
    this.blocked = false
    const waiters = this.drainWaiters
    this.drainWaiters = []
    for (const w of waiters) w()
    this.onClosed?.(error)
  }

  write(text: string): void {
    if (text === '' || this.closed) return
    this.onBeforeWrite()
    this.pending += text
    this.atLineStart = text.charCodeAt(text.length - 1) === 10
    if (this.pending.length >= FLUSH_AT) this.flush()
    else this.schedule()
  }

  /**
   * The live region (a table being read: markdown/render.ts `preview`):
   * drawn below what is written, on the terminal only, erased and drawn
   * again with every write, and erased for good before anything else is
   * written or a prompt opens (`dropLive`), so what stays on the screen and
   * in the scrollback is only what was written. It is drawn only where the
   * written text ended its line and no prompt is open, and never taller
   * than the screen less a row (its top could not be erased once scrolled
   * off): a taller one shows its last rows.
   */
  private live = ''
  /** The rows of the live region on the screen now (the cursor is on the row below them, at its start). */
  private liveShown: string[] = []

  /** Where the live region's text comes from, asked when the channel flushes (at most twice a macrotask, not at every token). */
  private liveSource: (() => string) | undefined

  /** The live region's text may have changed: `source` gives it when the channel next flushes (undefined: none). */
  setLive(source: (() => string) | undefined): void {
    if (this.closed || !this.line || (source === undefined && this.liveSource === undefined && this.live === '')) return
    this.liveSource = source
    this.liveChanged = true
    this.schedule()
  }

  private liveChanged = false

  /** Erases the live region now (something else is about to be written); it is drawn again when set again. */
  dropLive(): void {
    this.live = ''
    this.liveSource = undefined
    this.liveChanged = false
    if (this.liveShown.length === 0 || this.closed) return
    const rows = this.liveShown.length
    this.liveShown = []
    this.send(eraseRowsAbove(rows), 'utf8')
  }

  /** The rows of the live region to draw now (none: not drawn). */
  private liveRows(): string[] {
    if (this.live === '' || !this.atLineStart) return []
    const lines = this.live.split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    const room = Math.max(0, ((this.stream as {rows?: number}).rows || 24) - 1)
    return lines.length > room ? lines.slice(lines.length - room) : lines
  }

  /**
   * The bytes that put the live region's new rows where its old ones are,
   * after `data` (written text, placed). With no text between, only the
   * rows from the first that changed are drawn again: as a table's
   * unfinished row grows, that is the row and the border below it, not
   * the whole table at every token.
   */
  private redrawLive(data: string): string {
    const old = this.liveShown
    const rows = this.liveRows()
    let same = 0
    if (data === '') while (same < old.length && same < rows.length && old[same] === rows[same]) same++
    this.liveShown = rows
    if (data === '' && same === old.length && same === rows.length) return ''
    const erase = old.length > same ? eraseRowsAbove(old.length - same) : ''
    const drawn = rows.slice(same)
    return erase + data + (drawn.length > 0 ? drawn.join('\n') + '\n' : '')
  }

  private schedule(): void {
    if (this.gathering === undefined && !this.blocked) {
      this.gathering = setImmediate(() => (this.gathering = undefined))
      this.flush()
    } else this.scheduled ??= setImmediate(() => this.flush())
  }

  /**
   * Text given as its UTF-8 bytes (a binary string: one char per byte),
   * written as they are. Not on a terminal a prompt may be open on (those
   * writes are text), nor when short (queued with the rest).
   */
  writeBytes(utf8: string): void {
    if (utf8.length === 0 || this.closed) return
    if (this.onTerminal || utf8.length < DIRECT_AT) return this.write(Buffer.from(utf8, 'latin1').toString('utf8'))
    this.onBeforeWrite()
    // What is pending goes first.
    this.flush()
    this.atLineStart = utf8.charCodeAt(utf8.length - 1) === 10
    this.send(utf8, 'latin1')
  }

  get hasPending(): boolean {
    return this.pending.length > 0
  }

  flush(): void {
    if (this.scheduled) {
      clearImmediate(this.scheduled)
      this.scheduled = undefined
    }
    if ((this.pending.length === 0 && !this.liveChanged) || this.closed) return
    const data = this.pending
    this.pending = ''
    if (this.liveChanged) this.live = this.liveSource?.() ?? ''
    this.liveChanged = false
    if (this.line && (openPrompt() ?? shownFooter())) {
      // Nothing live under a prompt (it is dropped when one opens).
      this.dropLive()
      if (data === '') return
      // A prompt is open on this terminal: print above it, never into it,
      // continuing the unfinished line (on the terminal only: piped output
      // never reaches this branch).
      const line = this.line
      writeAbovePrompt(() => this.send(line.place(data, true), 'utf8'))
    } else if (this.line) {
      // What is written replaces the live region, drawn again below it.
      const bytes = this.redrawLive(data === '' ? '' : this.line.place(data, false))
      if (bytes !== '') this.send(bytes, 'utf8')
    } else {
      this.send(data, 'utf8')
    }
  }

  /** Writes terminal bytes of the printer's own (a line's cursor moved for a prompt) at once, ahead of anything pending. */
  sendRaw(data: string): void {
    if (data === '' || this.closed) return
    this.send(data, 'utf8')
  }

  /**
   * Hands `data` to the stream as bytes, noting when it is done and when the
   * stream pushes back. A string handed to a stream goes through
   * Buffer.from, which measures it before encoding it (two passes over a
   * two-byte string, a third of a text-heavy answer's output cost), and
   * makes a new Buffer per write, whose memory lives until V8 collects it.
   * Encoded once into the channel's own buffer instead, which an fd-backed
   * stream (stdout, stderr, the terminal: done with the bytes when it calls
   * back) lets the next write reuse.
   */
  private send(data: string, encoding: 'utf8' | 'latin1'): void {
    let chunk: Buffer
    let written: (() => void) | undefined
    if (typeof (this.stream as {fd?: unknown}).fd === 'number') {
      const size = encoding === 'latin1' ? data.length : data.length * 3
      if (this.bytesBusy || this.bytes.length < size) this.bytes = Buffer.allocUnsafeSlow(Math.max(size, this.bytes.length))
      const bytes = this.bytes
      chunk = bytes.subarray(0, bytes.write(data, 0, encoding))
      this.bytesBusy = true
      written = () => {
        if (this.bytes === bytes) this.bytesBusy = false
      }
    } else {
      // A stream that may keep the chunk after its callback (a test's PassThrough) gets its own.
      chunk = Buffer.from(data, encoding)
    }
    let done!: () => void
    this.lastWrite = new Promise<void>((resolve) => (done = resolve))
    // The callback also runs (with an error) if the stream fails: never hang a flush.
    const ok = this.stream.write(chunk, () => {
      written?.()
      done()
    })
    if (!ok && !this.blocked) {
      this.blocked = true
      this.stream.once('drain', () => {
        this.blocked = false
        const waiters = this.drainWaiters
        this.drainWaiters = []
        for (const w of waiters) w()
      })
    }
  }

  get isBlocked(): boolean {
    return this.blocked
  }

  /** Resolves once the stream has drained (immediately if not blocked). */
  drained(): Promise<void> {
    if (!this.blocked || this.closed) return Promise.resolve()
    return new Promise((resolve) => this.drainWaiters.push(resolve))
  }

  /** Resolves once everything handed to the stream has been written out. */
  async settle(): Promise<void> {
    this.flush()
    await this.lastWrite
  }
}

const RESOLVED = Promise.resolve()

export class Printer {
  readonly format: OutputFormat
  private readonly out: Channel
  private readonly err: Channel
  private readonly sanitizeOut: boolean
  private readonly sanitizeErr: boolean
  private readonly color: boolean
  private assistantSanitizer: Sanitizer | undefined
  private reasoningSanitizer: Sanitizer | undefined
  private readonly openPromptWriterImpl: () => NodeJS.WritableStream | undefined
  private promptStream: NodeJS.WritableStream | null | undefined // null: tried, none
  private inReasoning = false
  private readonly markdown: PrinterMarkdown
  private assistantMd: MarkdownStream | undefined
  private reasoningMd: MarkdownStream | undefined
  /** While a renderer waits for its highlighter: the writes that came after, in order. */
  private held: (() => void)[] | undefined
  private heldDone: Promise<void> | undefined

  constructor(options: PrinterOptions = {}) {
    const stdout = options.stdout ?? process.stdout
    const stderr = options.stderr ?? process.stderr
    this.format = options.format ?? 'text'
    this.color = options.color ?? colorEnabled()
    const stdoutTTY = options.stdoutIsTTY ?? Boolean((stdout as {isTTY?: boolean}).isTTY)
    const stderrTTY = options.stderrIsTTY ?? Boolean((stderr as {isTTY?: boolean}).isTTY)
    // Model text is altered only where it is shown on a terminal.
    this.sanitizeOut = stdoutTTY && this.format === 'text'
    this.sanitizeErr = stderrTTY
    // Both channels on the terminal share its line (one cursor).
    const columns = () => (stdout as {columns?: number}).columns || (stderr as {columns?: number}).columns || 80
    const line = stdoutTTY || stderrTTY ? new TerminalLine(columns) : undefined
    // Any output ends the status line first (erased before the text lands).
    this.out = new Channel(stdout, () => (this.status?.stop(), this.err.flush()), stdoutTTY, stdoutTTY ? line : undefined)
    // ...and, the answer being rendered on another thread, what it has rendered so far lands first.
    this.err = new Channel(stderr, () => (this.status?.stop(), this.syncAssistant(), this.out.dropLive(), this.out.flush()), stderrTTY, stderrTTY ? line : undefined)
    if (line) this.followPrompts(line)
    this.openPromptWriterImpl = options.openPromptWriter ?? openTtyWriteStream
    this.markdown = {
      assistant: this.sanitizeOut ? options.markdown?.assistant : undefined,
      reasoning: this.sanitizeErr && this.format === 'text' ? options.markdown?.reasoning : undefined,
    }
    // Rendered text ends every style it opens; a process killed mid-write still leaves the terminal plain.
    // Until the printer is closed: the restore registry holds what is still to undo, not every printer a process made.
    this.closeMarkdown = options.markdown?.close
    const reset = options.markdown?.reset
    if ((this.markdown.assistant || this.markdown.reasoning) && reset !== undefined) {
      const register = (sequence: string) => (this.unregisterReset = registerRestore({name: 'markdown styles', sequence}))
      // A renderer loaded at its first text: known once it is loaded, before it writes anything.
      if (typeof reset === 'string') register(reset)
      else void reset.then((sequence) => this.closed || register(sequence))
    }
  }

  /** Set by close(). */
  private closed = false
  private readonly closeMarkdown: (() => void) | undefined

  private unfollow: (() => void) | undefined

  /**
   * A prompt opening on the terminal while the answer's line is unfinished
   * opens on a fresh row below it; when it is gone the line goes on where
   * it stopped (the prompt erased itself: `Queue:`), or below the prompt's
   * last picture (a menu, a reply), where the rendered answer is told its
   * line was broken.
   */
  private followPrompts(line: TerminalLine): void {
    const channel = () => (this.out.line ? this.out : this.err)
    const unclaim = onPromptClaim(() => {
      // What is pending is written first, where the line stands (nothing live: a prompt draws below it).
      this.out.dropLive()
      this.flushSync()
      channel().sendRaw(line.lift())
    })
    const unrelease = onPromptRelease((how) => {
      const lifted = line.lifted
      // The cursor goes back first; text still pending follows it there.
      channel().sendRaw(line.release(how))
      if (lifted && !how.erased) this.brokenBelow()
    })
    this.unfollow = () => {
      unclaim()
      unrelease()
    }
  }

  /** The terminal's line ended under a prompt's last picture: rendered text goes on below it. */
  private brokenBelow(): void {
    this.out.atLineStart = true
    this.err.atLineStart = true
    this.assistantMd?.lineBroken()
    this.reasoningMd?.lineBroken()
  }

  /** Blocks until a render worker has given back all it was given (see hand-off.ts): call before anything else goes to the terminal. */
  private syncAssistant(): void {
    this.assistantMd?.sync?.()
  }

  /** Output of a render worker, as it comes. */
  private rendered(text: string): void {
    if (this.inOrder(() => this.rendered(text))) return
    this.out.write(text)
    this.showLive()
  }

  /** The assistant's table being read, live below its text (Channel.setLive). */
  private showLive(): void {
    this.out.setLive(this.assistantMd?.preview ? this.livePreview : undefined)
  }

  private readonly livePreview = (): string => this.assistantMd?.preview?.() ?? ''

  /** Runs `write` now, or after the held writes when a renderer is waiting for its highlighter. */
  private inOrder(write: () => void): boolean {
    if (!this.held) return false
    this.held.push(write)
    return true
  }

  /** After a renderer's output: when it waits, hold every later write until it is done. */
  private whenWaiting(md: MarkdownStream, channel: Channel): void {
    const waiting = md.waiting
    if (!waiting || this.held) return
    this.held = []
    this.heldDone = waiting.then(() => {
      channel.write(md.take())
      // Further waits (another renderer) chain on.
      const held = this.held ?? []
      this.held = undefined
      this.heldDone = undefined
      for (const w of held) w()
    })
  }

  private status: StatusLine | undefined
  private unregisterReset: (() => void) | undefined

  /**
   * Shows `⏱ LABEL… 1.2s` on the terminal, ticking, until any other output
   * or the returned stop function. Nothing without a terminal.
   */
  startStatus(label: string | StatusText, suffix?: (elapsedMs: number) => string): () => void {
    const tty = this.promptWriter()
    if (!tty) return () => {}
    this.out.dropLive()
    this.flushSync()
    this.status ??= new StatusLine({write: (text) => void tty.write(text), columns: () => (tty as {columns?: number}).columns})
    return this.status.start(typeof label === 'string' ? sanitizeUntrusted(label) : label, suffix)
  }

  /**
   * Streams assistant text to stdout (or a `text` event in json). A piece
   * with its UTF-8 bytes, going to a file or pipe, is written as those bytes
   * (its text is not even decoded).
   */
  assistant(piece: string | {readonly text: string; utf8?: string}): void {
    const utf8 = typeof piece === 'string' ? undefined : piece.utf8
    if (utf8 !== undefined && !this.sanitizeOut && !this.markdown.assistant && this.format === 'text') {
      if (this.inOrder(() => this.assistant(piece))) return
      this.endReasoning()
      return this.out.writeBytes(utf8)
    }
    let chunk = typeof piece === 'string' ? piece : piece.text
    if (chunk === '') return
    if (this.inOrder(() => this.assistant(chunk))) return
    this.endReasoning()
    if (this.format === 'json') return this.event({type: 'text', text: chunk})
    if (this.sanitizeOut) {
      // Rendered markdown carries its own styling: the model's SGR is dropped with every other sequence.
      this.assistantSanitizer ??= createSanitizer({keepColor: this.color && !this.markdown.assistant, showFormat: !this.markdown.assistant})
      chunk = this.assistantSanitizer.push(chunk)
    }
    if (this.markdown.assistant) {
      if (!this.assistantMd) {
        this.assistantMd = this.markdown.assistant((text) => this.rendered(text))
        if (this.hurried) this.assistantMd.hurry?.(this.hurried)
      }
      this.out.write(this.assistantMd.push(chunk))
      this.showLive()
      this.whenWaiting(this.assistantMd, this.out)
      return
    }
    this.out.write(chunk)
  }

  /** Ends an assistant message: a newline if the text did not end with one. */
  endAssistant(): void {
    if (this.inOrder(() => this.endAssistant())) return
    if (this.assistantSanitizer) {
      const rest = this.assistantSanitizer.end()
      this.assistantSanitizer = undefined
      if (this.assistantMd) this.out.write(this.assistantMd.push(rest))
      else this.out.write(rest)
    }
    if (this.assistantMd) {
      const md = this.assistantMd
      this.assistantMd = undefined
      this.out.setLive(undefined)
      this.out.write(md.end())
      this.whenWaiting(md, this.out)
      if (this.inOrder(() => this.endAssistant())) return
    }
    if (this.format === 'text' && !this.out.atLineStart) this.out.write('\n')
    this.out.atLineStart = true
  }

  /** Streams the model's reasoning to stderr (a `reasoning` event in json). */
  reasoning(chunk: string): void {
    if (chunk === '') return
    if (this.inOrder(() => this.reasoning(chunk))) return
    if (this.format === 'json') return this.event({type: 'reasoning', text: chunk})
    this.inReasoning = true
    if (this.sanitizeErr) {
      this.reasoningSanitizer ??= createSanitizer({keepColor: this.color && !this.markdown.reasoning, showFormat: !this.markdown.reasoning})
      chunk = this.reasoningSanitizer.push(chunk)
    }
    if (this.markdown.reasoning) {
      this.reasoningMd ??= this.markdown.reasoning()
      this.err.write(this.reasoningMd.push(chunk))
      this.whenWaiting(this.reasoningMd, this.err)
      return
    }
    this.err.write(chunk)
  }

  /** Ends the reasoning display (called for you when assistant text starts). */
  endReasoning(): void {
    if (!this.inReasoning) return
    if (this.inOrder(() => this.endReasoning())) return
    this.inReasoning = false
    if (this.reasoningSanitizer) {
      const rest = this.reasoningSanitizer.end()
      this.reasoningSanitizer = undefined
      this.err.write(this.reasoningMd ? this.reasoningMd.push(rest) : rest)
    }
    if (this.reasoningMd) {
      const md = this.reasoningMd
      this.reasoningMd = undefined
      this.err.write(md.end())
      this.whenWaiting(md, this.err)
      if (this.inOrder(() => !this.err.atLineStart && this.err.write('\n'))) return
    }
    if (!this.err.atLineStart) this.err.write('\n')
  }

  /** A line of chrome on stderr (tool headers, progress). */
  chrome(line: string): void {
    if (this.inOrder(() => this.chrome(line))) return
    this.syncAssistant()
    this.endReasoning()
    // On a shared terminal, chrome after half a line of assistant text would
    // land on that line; break it first (a rendered block goes on below it).
    if (this.sanitizeOut && this.sanitizeErr && !this.out.atLineStart) this.breakLine()
    this.err.write(sanitizeUntrusted(line, {multiline: true}) + '\n')
  }

  /** Ends stdout's partial line on the terminal, so other output can start on its own. */
  private breakLine(): void {
    this.out.write('\n')
    this.assistantMd?.lineBroken()
  }

  /**
   * Whether what stdout showed so far ends a line (rendered output, when
   * markdown is on; else the text as written). The menus start on their own line.
   */
  atLineStart(): boolean {
    this.syncAssistant()
    return this.out.atLineStart
  }

  /** A prompt ended stdout's partial line itself (on the terminal): rendered text goes on below it. */
  lineBroken(): void {
    this.syncAssistant()
    this.out.atLineStart = true
    ;(this.out.line ?? this.err.line)?.broken()
    this.assistantMd?.lineBroken()
  }

  /**
   * An interrupt cut the answer (its menu is about to open): what the
   * renderer held back (a partial word, a line it had not placed) is shown
   * now, so the screen holds all the text the partial answer stores, and
   * the menu and whatever follows start on their own line. A render
   * worker's part lands when it comes (not waited for: see `hurry`).
   */
  cutAssistant(): void {
    if (this.inOrder(() => this.cutAssistant())) return
    const md = this.assistantMd
    if (md?.cut) this.out.write(md.cut())
    this.showLive()
  }

  /** The cut answer goes on after all (`c` at the menu): the renderer as before the cut, below the menu. */
  goOnAssistant(): void {
    if (this.inOrder(() => this.goOnAssistant())) return
    this.assistantMd?.goOn?.()
  }

  /**
   * The cut answer ended there (`r`, `s`, `a` at the menu): what a render
   * worker still had of it is waited for briefly, then shown plain.
   */
  endCutAssistant(): void {
    if (this.inOrder(() => this.endCutAssistant())) return
    this.assistantMd?.syncBriefly?.()
  }

  /**
   * A signal or key is being answered (`menu`: the interrupt menu is
   * opening; `exit`: shutdown began, for good) or was (false: the menu's
   * answer lets the stream go on): meanwhile the answer's render worker is
   * never waited for — what it renders lands when it comes, above an open
   * prompt — and the end or cut of the answer waits for it briefly after a
   * menu (hand-off.ts HURRIED_MS), not at all at shutdown (what it has
   * not rendered is shown plain).
   * Saving never waited for the screen: the journal is written as events
   * arrive, on this thread.
   */
  hurry(how: Hurry): void {
    // Shutdown stays shutdown.
    if (this.hurried === 'exit') return
    this.hurried = how
    this.assistantMd?.hurry?.(how)
  }

  private hurried: Hurry = false

  /** A notice for the user (stderr in both formats). */
  notice(line: string): void {
    this.chrome(line)
  }

  /** A warning on stderr, prefixed with ⚠ unless it already is. */
  warn(line: string): void {
    this.chrome(line.startsWith('⚠') ? line : `⚠ ${line}`)
  }

  /** An error on stderr, and an `error` event on stdout in json. */
  error(line: string): void {
    if (this.format === 'json') this.event({type: 'error', message: line})
    this.chrome(line)
  }

  /** One NDJSON line on stdout in json format; ignored in text format. */
  event(obj: PrinterEvent): void {
    if (this.format !== 'json') return
    if (this.inOrder(() => this.event(obj))) return
    // Data, but possibly read on a terminal: DEL/C1 as \u escapes (the same JSON value).
    this.out.write(untrustedJson(obj) + '\n')
  }

  /**
   * Resolves when stdout and stderr are below their high-water marks. Cheap
   * when they are (a shared resolved promise): await it between stream events.
   */
  writable(): Promise<void> {
    if (this.heldDone) return this.heldDone.then(() => this.writable())
    if (!this.out.isBlocked && !this.err.isBlocked) return RESOLVED
    return Promise.all([this.out.drained(), this.err.drained()]).then(() => {})
  }

  /** Writes out everything buffered and waits for it; call before a prompt takes the terminal. */
  async flush(): Promise<void> {
    while (this.heldDone) await this.heldDone
    this.syncAssistant()
    this.out.flush()
    this.err.flush()
    await Promise.all([this.out.settle(), this.err.settle()])
  }

  /** Pushes buffered text to the streams synchronously (exit paths). */
  flushSync(): void {
    this.syncAssistant()
    this.out.flush()
    this.err.flush()
  }

  private queueLine: {line: QueueLine; hide: () => void} | undefined

  /**
   * The queued reply's line at the bottom of the terminal (SPEC §19):
   * `⧗ queued: FIRST LINE · q to edit` while `text` is queued; undefined
   * takes it away. Nothing without a terminal.
   */
  showQueued(text: string | undefined): void {
    if (text === undefined) {
      const shown = this.queueLine
      this.queueLine = undefined
      if (shown) {
        this.flushSync()
        shown.hide()
      }
      return
    }
    const clean = sanitizeUntrusted(text, {multiline: true})
    if (this.queueLine) return this.queueLine.line.update(clean)
    const tty = this.promptWriter()
    if (!tty || this.closed) return
    // What is pending lands first, where the line stands (nothing live: the footer draws below it).
    this.out.dropLive()
    this.flushSync()
    const line = new QueueLine(clean, {write: (data) => void tty.write(data), columns: () => (tty as {columns?: number}).columns, color: this.color})
    this.queueLine = {line, hide: showFooter(line)}
  }

  /** Whether stderr (chrome) is a terminal: the one prompts draw on, in practice. */
  get stderrIsTTY(): boolean {
    return this.sanitizeErr
  }

  /** The /dev/tty writer (opened once), or undefined with no terminal: written only through the methods above. */
  private promptWriter(): NodeJS.WritableStream | undefined {
    if (this.promptStream === undefined) this.promptStream = this.openPromptWriterImpl() ?? null
    return this.promptStream ?? undefined
  }

  /**
   * A line on the controlling terminal itself, whatever stdout and stderr
   * are (a tool's arguments before its permission prompt; `''` ends a
   * partial line before a menu): untrusted text, sanitized with its
   * newlines kept, printed above an open prompt. Nothing without a terminal.
   */
  ttyLine(text: string): void {
    const tty = this.promptWriter()
    if (!tty) return
    this.status?.stop()
    this.flushSync()
    const line = sanitizeUntrusted(text, {multiline: true}) + '\n'
    writeAbovePrompt(() => void tty.write(line))
  }

  /** The controlling terminal's width, when there is one. */
  ttyColumns(): number | undefined {
    return (this.promptWriter() as {columns?: number} | undefined)?.columns
  }

  /**
   * `fn` runs once if stdout fails (its reader went away: `| head -n 1`).
   * From then on stdout output is dropped and never blocks.
   */
  onStdoutClosed(fn: (error: NodeJS.ErrnoException) => void): void {
    this.out.onClosed = fn
    if (this.out.closed) fn(this.out.closed)
  }

  /** Closes the prompt writer if it was opened. */
  close(): void {
    // The queued reply's line goes first: what is still to print lands where it stood.
    this.showQueued(undefined)
    this.closed = true
    this.status?.stop()
    this.flushSync()
    // What was never written (a table still being read) does not stay on the screen.
    this.out.dropLive()
    this.assistantMd?.stop?.()
    this.closeMarkdown?.()
    this.unfollow?.()
    this.unfollow = undefined
    this.unregisterReset?.()
    this.unregisterReset = undefined
    const s = this.promptStream
    this.promptStream = undefined
    const destroy = (s as {destroy?: () => void} | null | undefined)?.destroy
    if (typeof destroy === 'function') destroy.call(s)
  }
}

