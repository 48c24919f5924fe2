// The vendored, patched @inquirer/core 12.0.6 (see PATCHES.md): what our
// prompts import instead of '@inquirer/core'.
export {createPrompt, type CreatePromptContext, type Prompt, type ViewFunction} from './create-prompt.js'
export {AbortPromptError, CancelPromptError, ExitPromptError, HookError, ValidationError} from './errors.js'
export {terminal} from './hook-engine.js'
export {makeTheme} from './make-theme.js'
export {useEffect} from './use-effect.js'
export {useKeypress} from './use-keypress.js'
export {useMemo} from './use-memo.js'
export {usePrefix} from './use-prefix.js'
export {useRef} from './use-ref.js'
export {useState, type SetState} from './use-state.js'
