#!/usr/bin/env node
import {execute} from '@oclif/core'

await execute({dir: import.meta.url})
// A plugin's editor-backend hook may leave a timer or socket alive (see
// src/lib/editor/plugins.ts): once the command is done, nothing of jp's is
// pending, so end the process rather than wait on the plugin.
if (globalThis[Symbol.for('jp.pluginHooksRan')]) process.exit()
