// The public API of jp for third-party plugins and embedders (package "exports": ".").
export * from './config/types.js'
export * from './editor/types.js'
export {MockEditorBackend, type MockEditResult} from './editor/mock.js'
export * from './inquire/types.js'
export {MockPromptBackend} from './inquire/mock.js'
