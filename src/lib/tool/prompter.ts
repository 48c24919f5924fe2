// The tool prompts (SPEC §8.1–8.3): permission to run, editing the
// arguments, a reason for skipping, and confirming/editing the result. Every
// free-text step is the inline widget seeded with the current text, with the
// Ctrl+X escape to the editor; the empty-submit meaning is decided here, per
// call site (SPEC §8.4).
import type {EditMode, ToolResultMode, ToolRunMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import {isPromptCancelled, type CancelReason, type InlineSelectConfig, type PromptBackend, type SelectOption} from '../inquire/types.js'
import {type ComposeDeps, editInline, type InlineEditResult, isNonBlank} from '../compose/inline.js'
import {unreachable} from '../text/unreachable.js'
import {sanitizeUntrusted, untrustedJson} from '../text/untrusted.js'
import {truncate} from '../inquire/render/frame.js'
import {errorMessage} from '../text/one-line.js'

export type ToolArguments = Record<string, unknown>

/**
 * How the user left a tool prompt through its Ctrl+C menu `[b,r,s,?]`
 * (SPEC §18). `b` never leaves: the same prompt is shown again.
 */
export type ToolPromptExit =
  /** Stop and reply: the remaining calls are answered as interrupted, `text` is the next user message. */
  | {type: 'reply'; text: string; fromEditor: boolean}
  /** Skip the remaining calls, save, exit 0. */
  | {type: 'stop'}
  /** Ctrl+C at the menu: the graceful shutdown has begun. */
  | {type: 'escalate'}

/** The `[b,r,s,?]` menu's answer. */
export type ToolPromptInterruptAction = {type: 'back'} | ToolPromptExit

/**
 * The Ctrl+C scope of the tool prompts: while one is on the screen, a press —
 * Ctrl+C typed at it, or SIGINT from outside — closes it and opens the menu
 * for that call. Without a scope, Ctrl+C at a prompt backs out of it.
 */
export interface ToolPromptScope {
  /** The `[b,r,s,?]` menu. */
  menu(): Promise<ToolPromptInterruptAction>
  /** Pushes a Ctrl+C listener on the signal router; returns its pop. */
  push(listener: () => void): () => void
  /**
   * Feeds Ctrl+C typed at a prompt to the router as a press, so the ladder
   * counts it like any other (the router notifies the pushed listener, or
   * shuts down on a second press). Absent: the press opens the menu.
   */
  press?(): void
}

export type PermissionResult =
  /** `attached`: the files the edited arguments mention, as the model reads them, for after the call's result. */
  | {type: 'run'; args: ToolArguments; remember: boolean; attached?: string}
  | {type: 'skip'; reason?: string; remember: boolean}
  | {type: 'interrupted'; exit: ToolPromptExit}

export type ArgumentEditResult =
  | {type: 'edited'; args: ToolArguments; attached?: string}
  /** The buffer was emptied: back to the permission prompt, arguments unchanged. */
  | {type: 'emptied'}
  | {type: 'cancelled'}
  | {type: 'interrupted'; exit: ToolPromptExit}

export type ResultChoice = 'deliver' | 'skip' | 'edit' | {exit: ToolPromptExit}

/** `exit`: the user left through the Ctrl+C menu at the result prompt (the result is not delivered). */
export type ResultReview = {deliver: true; content: string} | {deliver: false; exit?: ToolPromptExit}

/** What an argument edit means for the permission step: run, skip, leave through the menu, or ask again (`'ask'`). */
function afterEdit(edited: ArgumentEditResult): PermissionResult | 'ask' {
  switch (edited.type) {
    case 'edited': {
      return {type: 'run', args: edited.args, remember: false, ...(edited.attached ? {attached: edited.attached} : {})}
    }

    case 'cancelled': {
      return {type: 'skip', reason: EDIT_CANCELLED_REASON, remember: false}
    }

    case 'interrupted': {
      return edited
    }

    case 'emptied': {
      return 'ask'
    }

    default: {
      return unreachable(edited, 'argument edit result')
    }
  }
}

export const PERMISSION_OPTIONS: SelectOption[] = [
  {key: 'y', description: 'Run tool'},
  {key: 'Y', description: 'Run tool, remember for this turn'},
  {key: 'n', description: 'Skip'},
  {key: 'N', description: 'Skip, remember for this turn'},
  {key: 'p', description: 'Print arguments as JSON'},
  {key: 'r', description: 'Skip and reply'},
  {key: 'e', description: 'Edit arguments'},
]

export const RESULT_OPTIONS: SelectOption[] = [
  {key: 'y', description: 'Deliver result'},
  {key: 'n', description: 'Skip delivery'},
  {key: 'e', description: 'Edit result first'},
]

export const EDIT_ARGUMENTS_PROMPT = 'Edit arguments'
export const SKIP_REASON_PROMPT = 'Reason for skipping (optional)'
/** Seeds the skip-reason buffer; submitted unchanged it means "no reason". */
export const SKIP_REASON_PLACEHOLDER = '_Provide reasoning for skipping tool execution_'
export const EDIT_RESULT_PROMPT = 'Edit result before delivery'
export const EDIT_CANCELLED_REASON = 'Edit cancelled'

/** `source`: the tool's `source` (`"mcp"` for an MCP server's tool: the user is told it is not a local program). */
export function permissionQuestion(name: string, source?: string): string {
  return source === 'mcp' ? `Run MCP tool ${name}?` : `Run local tool ${name}?`
}

/**
 * The call's header, `⚙ NAME {arguments}`, sanitized and cut to `columns`
 * (the permission prompt's first line; `p` prints the arguments whole).
 */
export function toolHeader(name: string, args: unknown, columns: number): string {
  return truncate(sanitizeUntrusted(`⚙ ${name} ${untrustedJson(args)}`), Math.max(10, columns - 1)).text
}

export function resultQuestion(name: string): string {
  return `Deliver ${name} result to assistant?`
}

/**
 * The model's arguments as pretty JSON for `p` and as the edit seed. Through
 * the untrusted-text sanitizer: JSON.stringify leaves DEL and C1 controls raw
 * (U+009B is a CSI), which would act on the terminal; escaped, they are shown
 * and the JSON still parses to the same arguments.
 */
export function prettyArguments(args: unknown): string {
  return untrustedJson(args, 2)
}

/**
 * Parses edited arguments: a JSON object or a one-line reason it is not one
 * (the parser's own message, so the user sees where the error is).
 */
export function parseArguments(text: string): {ok: true; args: ToolArguments} | {ok: false; message: string} {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return {ok: false, message: errorMessage(error)}
  }

  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {ok: false, message: 'the arguments must be a JSON object'}
  }

  return {ok: true, args: value as ToolArguments}
}

export interface ToolPrompterDeps {
  backend: PromptBackend
  editor: EditorBackend | undefined
  editMode: EditMode
  /** One line of chrome on stderr (editor failures). */
  notice: (line: string) => void
  /** Shows the arguments for `p`, on the prompt terminal. */
  print: (text: string) => void
  /** The terminal's width, for the header (default 80). */
  columns?: () => number | undefined
  /** Where Ctrl+C at a prompt goes (SPEC §18); absent: it backs out of the prompt. */
  scope?: ToolPromptScope
  /**
   * The files a text typed here mentions (`@PATH`, SPEC §19), each as the
   * model reads an attachment; rejects with one line. Absent: mentions
   * complete only.
   */
  mentionBlocks?: (text: string) => Promise<string[]>
}

type Selected = {key: string} | {cancelled: CancelReason}

/** A prompt's answer, or the way the user left through the Ctrl+C menu. */
type Scoped<T> = {value: T} | {exit: ToolPromptExit}

export class ToolPrompter {
  private readonly deps: ToolPrompterDeps
  private readonly composeDeps: ComposeDeps

  constructor(deps: ToolPrompterDeps) {
    this.deps = deps
    this.composeDeps = {backend: deps.backend, editor: deps.editor, editMode: deps.editMode, notice: deps.notice}
  }

  /** The permission step for one call, by `run` mode (SPEC §8.1). */
  async promptPermission(name: string, args: ToolArguments, mode: ToolRunMode, source?: string): Promise<PermissionResult> {
    switch (mode) {
      case 'unattended': {
        return {type: 'run', args, remember: false}
      }

      case 'skip': {
        return {type: 'skip', remember: false}
      }

      case 'edit': {
        // No permission prompt comes first: the editor names the tool.
        const edited = afterEdit(await this.editArguments(args, this.header(name, args)))
        return edited === 'ask' ? this.ask(name, args, source) : edited
      }

      case 'ask': {
        return this.ask(name, args, source)
      }

      default: {
        return unreachable(mode, 'tool run mode')
      }
    }
  }

  /**
   * The `Run local tool NAME?` menu under the call's header; loops on `p` and
   * on an emptied edit.
   */
  async ask(name: string, args: ToolArguments, source?: string): Promise<PermissionResult> {
    for (;;) {
      const asked = await this.scoped(
        (signal) => this.select({message: `${this.header(name, args)}\n${permissionQuestion(name, source)}`, options: PERMISSION_OPTIONS, signal}),
        isCtrlC,
      )
      if ('exit' in asked) return {type: 'interrupted', exit: asked.exit}
      const selected = asked.value
      // Backing out of the permission prompt (Esc, the prompt ended) never runs the tool.
      if (!('key' in selected)) return {type: 'skip', remember: false}

      switch (selected.key) {
        case 'y': {
          return {type: 'run', args, remember: false}
        }

        case 'Y': {
          return {type: 'run', args, remember: true}
        }

        case 'n': {
          return {type: 'skip', remember: false}
        }

        case 'N': {
          return {type: 'skip', remember: true}
        }

        case 'p': {
          this.deps.print(prettyArguments(args))
          break
        }

        case 'r': {
          const reason = await this.skipReason()
          if (typeof reason === 'object') return {type: 'interrupted', exit: reason.exit}
          return reason === undefined ? {type: 'skip', remember: false} : {type: 'skip', reason, remember: false}
        }

        case 'e': {
          const edited = afterEdit(await this.editArguments(args))
          if (edited !== 'ask') return edited
          // Emptied: ask again with the original arguments.
          break
        }

        default: {
          break
        }
      }
    }
  }

  /**
   * Edits the arguments in the inline widget, seeded with pretty JSON. Invalid
   * JSON re-asks with the user's text and the parser's message as the prompt
   * line; the Ctrl+X editor's text goes through the same validation. Ctrl+C
   * opens the call's menu; `b` brings the widget back with the text as it was.
   */
  async editArguments(args: ToolArguments, header?: string): Promise<ArgumentEditResult> {
    let text = prettyArguments(args)
    let message = EDIT_ARGUMENTS_PROMPT
    for (;;) {
      const edited = await this.scoped(async (signal) => {
        const result = await this.edit(header ? `${header}\n${message}` : message, text, signal, undefined, true)
        // Kept for `b`: the widget comes back as the user left it.
        if (result.type === 'cancelled') text = result.text
        return result
      }, isCtrlC)
      if ('exit' in edited) return {type: 'interrupted', exit: edited.exit}
      const result = edited.value
      if (result.type === 'cancelled') return {type: 'cancelled'}
      if (!isNonBlank(result.text)) return {type: 'emptied'}
      const parsed = parseArguments(result.text)
      // The tool gets the JSON as typed; the files it mentions go to the model after the call's result.
      if (parsed.ok) {
        const attached = await this.mentionedBlocks(result.text)
        return {type: 'edited', args: parsed.args, ...(attached === undefined ? {} : {attached})}
      }
      text = result.text
      message = `Invalid JSON: ${parsed.message}`
    }
  }

  /**
   * The optional reason for skipping: empty, the unchanged placeholder or a
   * cancel mean none. Ctrl+C here backs out (it is a step below the
   * permission prompt); a SIGINT from outside still opens the call's menu.
   */
  async skipReason(): Promise<string | undefined | {exit: ToolPromptExit}> {
    let text = ''
    const asked = await this.scoped(async (signal) => {
      const result = await this.edit(SKIP_REASON_PROMPT, text, signal, SKIP_REASON_PLACEHOLDER, true)
      if (result.type === 'cancelled') text = result.text
      return result
    }, () => false)
    if ('exit' in asked) return asked
    const result = asked.value
    if (result.type === 'cancelled') return undefined
    const trimmed = result.text.trim()
    if (trimmed === '' || trimmed === SKIP_REASON_PLACEHOLDER) return undefined
    return this.withMentions(result.text)
  }

  /** `Deliver NAME result to assistant?` (default `y`); backing out does not deliver. */
  async confirmResult(name: string): Promise<ResultChoice> {
    const asked = await this.scoped((signal) => this.select({message: resultQuestion(name), options: RESULT_OPTIONS, default: 'y', signal}), isCtrlC)
    if ('exit' in asked) return asked
    const selected = asked.value
    if (!('key' in selected)) return 'skip'
    if (selected.key === 'y') return 'deliver'
    if (selected.key === 'e') return 'edit'
    return 'skip'
  }

  /** Edits a result: non-blank text replaces it; blank or a cancel keeps the original. */
  async editResult(result: string): Promise<string | {exit: ToolPromptExit}> {
    let text = result
    const edited = await this.scoped(async (signal) => {
      const outcome = await this.edit(EDIT_RESULT_PROMPT, text, signal, undefined, true)
      if (outcome.type === 'cancelled') text = outcome.text
      return outcome
    }, isCtrlC)
    if ('exit' in edited) return edited
    if (edited.value.type === 'submit' && isNonBlank(edited.value.text)) return this.withMentions(edited.value.text)
    return result
  }

  /**
   * A text the model reads as the call's result (an edited result, a skip
   * reason) with the files it mentions after it, as a reply carries them.
   * The prompt checked them before it let the text go; one that changed
   * since is a notice, and the text goes without it rather than be lost.
   */
  private async withMentions(text: string): Promise<string> {
    const blocks = await this.mentionedBlocks(text)
    return blocks === undefined ? text : `${text}\n\n${blocks}`
  }

  /** The files `text` mentions, as the model reads them (undefined: none). */
  private async mentionedBlocks(text: string): Promise<string | undefined> {
    if (!this.deps.mentionBlocks) return undefined
    try {
      const blocks = await this.deps.mentionBlocks(text)
      return blocks.length > 0 ? blocks.join('\n\n') : undefined
    } catch (error) {
      this.deps.notice(`not attached: ${errorMessage(error)}`)
      return undefined
    }
  }

  /** The result step for one call, by `result` mode on a terminal (SPEC §8.3). */
  async reviewResult(name: string, content: string, mode: ToolResultMode): Promise<ResultReview> {
    switch (mode) {
      case 'skip': {
        return {deliver: false}
      }

      case 'edit': {
        return this.delivered(await this.editResult(content))
      }

      case 'ask': {
        const choice = await this.confirmResult(name)
        if (typeof choice === 'object') return {deliver: false, exit: choice.exit}
        if (choice === 'deliver') return {deliver: true, content}
        if (choice === 'edit') return this.delivered(await this.editResult(content))
        return {deliver: false}
      }

      default: {
        return {deliver: true, content}
      }
    }
  }

  private delivered(edited: string | {exit: ToolPromptExit}): ResultReview {
    return typeof edited === 'string' ? {deliver: true, content: edited} : {deliver: false, exit: edited.exit}
  }

  private header(name: string, args: ToolArguments): string {
    return toolHeader(name, args, this.deps.columns?.() ?? 80)
  }

  private async select(config: InlineSelectConfig): Promise<Selected> {
    try {
      return {key: await this.deps.backend.inlineSelect(config)}
    } catch (error) {
      if (isPromptCancelled(error)) return {cancelled: error.reason}
      throw error
    }
  }

  /** One showing of the inline widget (Ctrl+X escape included); a cancel keeps its buffer. */
  private edit(message: string, initialText: string, signal: AbortSignal | undefined, placeholder?: string, attaches = false): Promise<InlineEditResult> {
    const attachesMentions = attaches && this.deps.mentionBlocks !== undefined
    return editInline(this.composeDeps, {message, initialText, editorEscape: true, placeholder, signal, attachesMentions})
  }

  /**
   * Shows one prompt inside the tool prompts' Ctrl+C scope. A press while it
   * is on the screen — `isPress(answer)` (Ctrl+C typed at it, fed to the
   * router) or a SIGINT (which ends the prompt) — opens the call's menu once
   * the prompt has closed: `b` shows the prompt again (`show` re-seeds from
   * what it kept), any other answer is returned as the exit. Presses while
   * the menu is open are the menu's (Ctrl+C there is a key).
   */
  private async scoped<T>(show: (signal: AbortSignal | undefined) => Promise<T>, isPress: (answer: T) => boolean): Promise<Scoped<T>> {
    const scope = this.deps.scope
    if (scope === undefined) return {value: await show(undefined)}
    for (;;) {
      const controller = new AbortController()
      let state: 'prompt' | 'pressed' | 'menu' = 'prompt'
      const pop = scope.push(() => {
        if (state !== 'prompt') return
        state = 'pressed'
        controller.abort()
      })
      let action: ToolPromptInterruptAction
      try {
        const answer = await show(controller.signal)
        if (state === 'prompt' && isPress(answer)) {
          if (scope.press) scope.press()
          else state = 'pressed'
          // The router did not notify: this press began (or ended) the shutdown.
          if (state === 'prompt') return {exit: {type: 'escalate'}}
        }

        if (state === 'prompt') return {value: answer}
        state = 'menu'
        action = await scope.menu()
      } finally {
        pop()
      }

      if (action.type !== 'back') return {exit: action}
    }
  }
}

/** Ctrl+C typed at a menu or in the widget (not Esc, not Ctrl+D, not an end from outside). */
function isCtrlC(answer: Selected | InlineEditResult): boolean {
  if ('cancelled' in answer) return answer.cancelled === 'interrupted'
  return 'type' in answer && answer.type === 'cancelled' && answer.reason === 'interrupted'
}
