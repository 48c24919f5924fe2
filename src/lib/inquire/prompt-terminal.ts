// What a prompt built with the vendored inquirer hooks sees of the terminal.
// It stands where @inquirer/core puts its readline interface (the hook
// store's `rl`, handed to `useEffect` callbacks and keypress handlers): keys
// come from our KeyDecoder, frames go to our incremental screen, and modes a
// prompt turns on are undone on every exit path by the terminal layer's
// session. A prompt writes no bytes of its own: frames (cursor shape and a
// cleared screen included) are the painter's, modes the session's.
import type {PromptMode} from '../terminal/session.js'
import type {Key} from './keys.js'
import type {PromptScreen} from './screen.js'

export type {PromptMode} from '../terminal/session.js'

export type KeyListener = (key: Key) => void

export interface PromptTerminal {
  /** The environment the prompt renders for (TERM, NO_COLOR). */
  readonly env: NodeJS.ProcessEnv
  /** TERM=dumb: no cursor addressing, no modes. */
  readonly dumb: boolean
  columns(): number
  rows(): number
  /** Turns a terminal mode on now; it is turned off when the prompt ends, however it ends. */
  enable(mode: PromptMode): void
  readonly screen: PromptScreen
  /** Decoded keys, in order; returns the function that stops listening. */
  onKey(listener: KeyListener): () => void
}
