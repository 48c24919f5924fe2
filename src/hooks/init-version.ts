import type {Hook} from '@oclif/core'
import {useVersionLine} from '../lib/cli/version.js'

// Runs before oclif handles --version/-v and the root help.
const hook: Hook.Init = async function () {
  useVersionLine(this.config)
}
export default hook
