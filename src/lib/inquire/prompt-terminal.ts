// What a prompt built with the vendored inquirer hooks sees of the terminal.
// It stands where @inquirer/core puts its readline interface (the hook
// store's `rl`, handed to `useEffect` callbacks and keypress handlers): keys
// come from our KeyDecoder, frames go to our incremental screen, and modes a
// prompt turns on are undone on every exit path by the session.
import type {Key} from './keys.js'
import type {PromptScreen} from './screen.js'

export type KeyListener = (key: Key) => void

export interface PromptTerminal {
  /** The environment the prompt renders for (TERM, NO_COLOR). */
  readonly env: NodeJS.ProcessEnv
  /** TERM=dumb: no cursor addressing, no modes. */
  readonly dumb: boolean
  columns(): number
  rows(): number
  /** Writes raw bytes (mode switches such as the cursor shape); frames go through `screen`. */
  write(data: string): void
  /** Writes `on` now; `off` is written when the prompt ends, however it ends. */
  enable(on: string, off: string): void
  readonly screen: PromptScreen
  /** Decoded keys, in order; returns the function that stops listening. */
  onKey(listener: KeyListener): () => void
}
