// The terminal's size changed (SIGWINCH). Prompts hear it from here, the
// terminal layer, not from the process: the listener goes through the process
// lifecycle (process/lifecycle.ts), the one place that listens for signals.
import {listenToSignal} from '../process/lifecycle.js'

/** Calls `listener` on each resize of the controlling terminal; returns the unsubscribe. */
export function onTerminalResize(listener: () => void): () => void {
  return listenToSignal('SIGWINCH', () => listener())
}
