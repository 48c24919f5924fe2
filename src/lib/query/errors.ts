// How the query pipeline fails: a QueryError is a one-line failure the user
// can act on (no such conversation, no model key, a locked conversation, a
// broken config), carrying the exit code it maps to. Library code throws it;
// only the command turns it into an exit. A step wrapped in `userFacing`
// reports any error as such a line (its stack stays as the cause).
import {errorMessage} from '../text/one-line.js'

export class QueryError extends Error {
  readonly exitCode: number

  constructor(message: string, opts: {exitCode?: number; cause?: unknown} = {}) {
    super(message, opts.cause === undefined ? undefined : {cause: opts.cause})
    this.name = 'QueryError'
    this.exitCode = opts.exitCode ?? 1
  }
}

/** True for a QueryError from any copy of this module (commands load from dist/, tests from src/). */
export function isQueryError(e: unknown): e is QueryError {
  return e instanceof Error && e.name === 'QueryError' && typeof (e as QueryError).exitCode === 'number'
}

/**
 * Runs one step whose failures are the user's to fix (config, storage,
 * provider set-up): any error it throws becomes a QueryError with its message.
 */
export async function userFacing<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    throw isQueryError(error) ? error : new QueryError(errorMessage(error), {cause: error})
  }
}
