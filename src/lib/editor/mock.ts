import {EditorError, type EditOutcome, type EditorBackend, type EditRequest, type EditTextResult} from './types.js'

/** One scripted editor interaction. */
export type MockEditResult =
  | {outcome: 'saved'; text: string}
  | {outcome: 'cancelled'}
  | {error: 'spawn' | 'io'; message?: string}

/**
 * Scripted `EditorBackend` for tests and plugins: each call takes the next
 * result from the queue. An exhausted queue is a test bug and throws.
 */
export class MockEditorBackend implements EditorBackend {
  /** Every content passed to `editText`, in order. */
  readonly textCalls: string[] = []
  /** Every request passed to `editFile`, in order. */
  readonly fileCalls: EditRequest[] = []
  private readonly queue: MockEditResult[]

  constructor(results: Iterable<MockEditResult> = []) {
    this.queue = [...results]
  }

  withResults(results: Iterable<MockEditResult>): this {
    this.queue.push(...results)
    return this
  }

  get remaining(): number {
    return this.queue.length
  }

  async editText(content: string): Promise<EditTextResult> {
    this.textCalls.push(content)
    const next = this.take()
    if (next.outcome === 'saved') return {outcome: 'saved', text: next.text}
    return {outcome: 'cancelled', text: content}
  }

  async editFile(req: EditRequest): Promise<EditOutcome> {
    this.fileCalls.push({paths: [...req.paths], cwd: req.cwd})
    const next = this.take()
    return next.outcome
  }

  private take(): {outcome: 'saved'; text: string} | {outcome: 'cancelled'} {
    const next = this.queue.shift()
    if (next === undefined) throw new Error('MockEditorBackend: no scripted result left')
    if ('error' in next) {
      throw next.error === 'spawn'
        ? EditorError.spawn('mock-editor', next.message ?? 'No such file or directory')
        : EditorError.io(next.message ?? 'mock I/O failure')
    }
    return next
  }
}
