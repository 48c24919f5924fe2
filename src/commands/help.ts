// `jp help [COMMAND...]`: oclif's own help command (@oclif/plugin-help),
// bundled like jp's commands; it shows jp's help class (src/lib/cli/help.ts).
import type {Command} from '@oclif/core'
import {commands} from '@oclif/plugin-help'

const HelpCommand: Command.Class = commands.help
export default HelpCommand
