// The tool prompts (SPEC §8.1–8.3): permission to run, editing the
// arguments, a reason for skipping, and confirming/editing the result. Every
// free-text step is the inline widget seeded with the current text, with the
// Ctrl+X escape to the editor; the empty-submit meaning is decided here, per
// call site (SPEC §8.4).
import type {EditMode, ToolResultMode, ToolRunMode} from '../config/types.js'
import type {EditorBackend} from '../editor/types.js'
import {isPromptCancelled, type PromptBackend, type SelectOption} from '../inquire/types.js'
import {type ComposeDeps, editInline, isNonBlank} from '../compose/inline.js'
import {untrustedJson} from '../text/untrusted.js'
import {errorMessage} from '../text/one-line.js'

export type ToolArguments = Record<string, unknown>

export type PermissionResult =
  | {type: 'run'; args: ToolArguments; remember: boolean}
  | {type: 'skip'; reason?: string; remember: boolean}

export type ArgumentEditResult =
  | {type: 'edited'; args: ToolArguments}
  /** The buffer was emptied: back to the permission prompt, arguments unchanged. */
  | {type: 'emptied'}
  | {type: 'cancelled'}

export type ResultChoice = 'deliver' | 'skip' | 'edit'

export type ResultReview = {deliver: true; content: string} | {deliver: false}

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

export function permissionQuestion(name: string): string {
  return `Run local tool ${name}?`
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
}

export class ToolPrompter {
  private readonly deps: ToolPrompterDeps
  private readonly composeDeps: ComposeDeps

  constructor(deps: ToolPrompterDeps) {
    this.deps = deps
    this.composeDeps = {backend: deps.backend, editor: deps.editor, editMode: deps.editMode, notice: deps.notice}
  }

  /** The permission step for one call, by `run` mode (SPEC §8.1). */
  async promptPermission(name: string, args: ToolArguments, mode: ToolRunMode): Promise<PermissionResult> {
    switch (mode) {
      case 'unattended': {
        return {type: 'run', args, remember: false}
      }

      case 'skip': {
        return {type: 'skip', remember: false}
      }

      case 'edit': {
        const edited = await this.editArguments(args)
        if (edited.type === 'edited') return {type: 'run', args: edited.args, remember: false}
        if (edited.type === 'cancelled') return {type: 'skip', reason: EDIT_CANCELLED_REASON, remember: false}
        return this.ask(name, args)
      }

      default: {
        return this.ask(name, args)
      }
    }
  }

  /** The `Run local tool NAME?` menu; loops on `p` and on an emptied edit. */
  async ask(name: string, args: ToolArguments): Promise<PermissionResult> {
    for (;;) {
      let key: string
      try {
        key = await this.deps.backend.inlineSelect({message: permissionQuestion(name), options: PERMISSION_OPTIONS})
      } catch (error) {
        // Backing out of the permission prompt never runs the tool.
        if (isPromptCancelled(error)) return {type: 'skip', remember: false}
        throw error
      }

      switch (key) {
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
          return reason === undefined ? {type: 'skip', remember: false} : {type: 'skip', reason, remember: false}
        }

        case 'e': {
          const edited = await this.editArguments(args)
          if (edited.type === 'edited') return {type: 'run', args: edited.args, remember: false}
          if (edited.type === 'cancelled') return {type: 'skip', reason: EDIT_CANCELLED_REASON, remember: false}
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
   * line; the Ctrl+X editor's text goes through the same validation.
   */
  async editArguments(args: ToolArguments): Promise<ArgumentEditResult> {
    let text = prettyArguments(args)
    let message = EDIT_ARGUMENTS_PROMPT
    for (;;) {
      const result = await editInline(this.composeDeps, {message, initialText: text, editorEscape: true})
      if (result.type === 'cancelled') return {type: 'cancelled'}
      if (!isNonBlank(result.text)) return {type: 'emptied'}
      const parsed = parseArguments(result.text)
      if (parsed.ok) return {type: 'edited', args: parsed.args}
      text = result.text
      message = `Invalid JSON: ${parsed.message}`
    }
  }

  /** The optional reason for skipping: empty, the unchanged placeholder or a cancel mean none. */
  async skipReason(): Promise<string | undefined> {
    const result = await editInline(this.composeDeps, {
      message: SKIP_REASON_PROMPT,
      initialText: SKIP_REASON_PLACEHOLDER,
      editorEscape: true,
    })
    if (result.type === 'cancelled') return undefined
    const trimmed = result.text.trim()
    if (trimmed === '' || trimmed === SKIP_REASON_PLACEHOLDER) return undefined
    return result.text
  }

  /** `Deliver NAME result to assistant?` (default `y`); backing out does not deliver. */
  async confirmResult(name: string): Promise<ResultChoice> {
    let key: string
    try {
      key = await this.deps.backend.inlineSelect({message: resultQuestion(name), options: RESULT_OPTIONS, default: 'y'})
    } catch (error) {
      if (isPromptCancelled(error)) return 'skip'
      throw error
    }

    if (key === 'y') return 'deliver'
    if (key === 'e') return 'edit'
    return 'skip'
  }

  /** Edits a result: non-blank text replaces it; blank or a cancel keeps the original. */
  async editResult(result: string): Promise<string> {
    const edited = await editInline(this.composeDeps, {message: EDIT_RESULT_PROMPT, initialText: result, editorEscape: true})
    if (edited.type === 'submit' && isNonBlank(edited.text)) return edited.text
    return result
  }

  /** The result step for one call, by `result` mode on a terminal (SPEC §8.3). */
  async reviewResult(name: string, content: string, mode: ToolResultMode): Promise<ResultReview> {
    switch (mode) {
      case 'skip': {
        return {deliver: false}
      }

      case 'edit': {
        return {deliver: true, content: await this.editResult(content)}
      }

      case 'ask': {
        const choice = await this.confirmResult(name)
        if (choice === 'deliver') return {deliver: true, content}
        if (choice === 'edit') return {deliver: true, content: await this.editResult(content)}
        return {deliver: false}
      }

      default: {
        return {deliver: true, content}
      }
    }
  }
}
