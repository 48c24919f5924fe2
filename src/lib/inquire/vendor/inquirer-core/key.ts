// Vendored from @inquirer/core 12.0.6 (dist/lib/key.js), MIT, see LICENSE.
// Only the part the theme needs (the default keybindings); unchanged.
import type {Keybinding} from '@inquirer/core'

const keybindings: Keybinding[] = ['emacs', 'vim']
const keybindingLookup = new Set<string>(keybindings)

function isKeybinding(value: string): value is Keybinding {
  return keybindingLookup.has(value)
}

export function getDefaultKeybindings(): ReadonlyArray<Keybinding> {
  const env = process.env['INQUIRER_KEYBINDINGS']
  if (!env) return []
  return Array.from(
    new Set(
      env
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(isKeybinding),
    ),
  )
}
