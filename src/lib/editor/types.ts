// The frontend seam for running the user's editor (SPEC §5, seed "EditorBackend").

/** The two outcomes of an edit, as values (a plugin gets them from its hook's `jp.EDIT_OUTCOMES`). */
export const EDIT_OUTCOMES = Object.freeze({saved: 'saved', cancelled: 'cancelled'} as const)

export type EditOutcome = (typeof EDIT_OUTCOMES)[keyof typeof EDIT_OUTCOMES]

export interface EditTextResult {
  outcome: EditOutcome
  /** Meaningless when `outcome` is 'cancelled'; callers ignore it then. */
  text: string
}

export interface EditRequest {
  /**
   * What to edit, absolute or relative to `cwd`. Each path is a file or a
   * directory: `jp conversation edit` without a file flag passes each
   * conversation's directory (the user edits any of its files); every other
   * caller passes files. Backends must handle both.
   */
  paths: string[]
  /** Working directory for a spawned editor; non-spawning frontends ignore it. */
  cwd?: string
}

export interface EditorBackend {
  editText(content: string): Promise<EditTextResult>
  editFile(req: EditRequest): Promise<EditOutcome>
}

export type EditorErrorKind = 'spawn' | 'io'

/**
 * The editor never ran (spawn) or its file could not be written/read (io).
 * Distinct from a cancelled edit: callers recover and keep the user's text.
 * Compare by `kind` / `name`, not `instanceof` (two module copies may exist).
 */
export class EditorError extends Error {
  readonly kind: EditorErrorKind
  constructor(kind: EditorErrorKind, message: string, options?: {cause?: unknown}) {
    super(message, options)
    this.name = 'EditorError'
    this.kind = kind
  }

  static spawn(program: string, reason: string, cause?: unknown): EditorError {
    return new EditorError('spawn', `failed to spawn editor '${program}': ${reason}`, {cause})
  }

  static io(reason: string, cause?: unknown): EditorError {
    return new EditorError('io', `editor file I/O failed: ${reason}`, {cause})
  }
}

export function isEditorError(error: unknown): error is EditorError {
  return error instanceof Error && error.name === 'EditorError' && 'kind' in error
}
