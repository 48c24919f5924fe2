import type {Hook} from '@oclif/core'

// Installs buildEditorBackend (SPEC §5). Filled in by the editor service.
const hook: Hook.Init = async function () {}

export default hook
