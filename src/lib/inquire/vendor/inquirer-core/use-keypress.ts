// Vendored from @inquirer/core 12.0.6 (dist/lib/use-keypress.js), MIT, see
// LICENSE. PATCHED (see PATCHES.md), the key-source seam: keys come from the
// project's KeyDecoder through the PromptTerminal (kitty CSI-u, bracketed
// paste as one key, Meta, sequences split across reads), not from Node
// readline's 'keypress' events; the handler gets our Key.
import type {Key} from '../../keys.js'
import type {PromptTerminal} from '../../prompt-terminal.js'
import {withUpdates} from './hook-engine.js'
import {useEffect} from './use-effect.js'
import {useRef} from './use-ref.js'

export function useKeypress(userHandler: (key: Key, term: PromptTerminal) => void | Promise<void>): void {
  const signal = useRef(userHandler)
  signal.current = userHandler
  useEffect((term) => {
    let ignore = false
    const handler = withUpdates((key: Key) => {
      if (ignore) return
      void signal.current(key, term)
    })
    const stop = term.onKey(handler)
    return () => {
      ignore = true
      stop()
    }
  }, [])
}
