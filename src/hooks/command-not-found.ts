import type {Hook} from '@oclif/core'
import {JpHelp} from '../lib/cli/help.js'

// oclif runs this when the words name no command: a topic alias (`jp c`)
// shows its topic's commands; anything else is a usage error with a
// suggestion (JpHelp decides both, so `jp help WORDS` says the same).
const hook: Hook.CommandNotFound = async function ({id}) {
  await new JpHelp(this.config).showHelp(id.split(':'))
}
export default hook
