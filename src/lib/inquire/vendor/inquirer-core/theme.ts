// Vendored from @inquirer/core 12.0.6 (dist/lib/theme.js), MIT, see LICENSE.
// Unchanged (the Theme type is the package's own, imported as a type).
import {styleText} from 'node:util'
import figures from '@inquirer/figures'
import type {Theme} from '@inquirer/core'
import {getDefaultKeybindings} from './key.js'

type DefaultTheme = Theme

export const defaultTheme: DefaultTheme = {
  prefix: {
    idle: styleText('blue', '?'),
    done: styleText('green', figures.tick),
  },
  spinner: {
    interval: 80,
    frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'].map((frame) => styleText('yellow', frame)),
  },
  keybindings: [],
  style: {
    answer: (text: string) => styleText('cyan', text),
    message: (text: string) => styleText('bold', text),
    error: (text: string) => styleText('red', `> ${text}`),
    defaultAnswer: (text: string) => styleText('dim', `(${text})`),
    help: (text: string) => styleText('dim', text),
    highlight: (text: string) => styleText('cyan', text),
    key: (text: string) => styleText('cyan', styleText('bold', `<${text}>`)),
  },
}

export function getDefaultTheme(): DefaultTheme {
  return {
    ...defaultTheme,
    keybindings: getDefaultKeybindings(),
  }
}
