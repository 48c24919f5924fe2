// Test support for plugins and embedders (package "exports": "./testing"):
// scripted stand-ins for the editor and the prompts. Kept out of the main
// entry so nothing in jp itself, nor a plugin's runtime import of `jp-llm-cli`,
// loads them; import them from `jp-llm-cli/testing` in tests only.
export {MockEditorBackend, type MockEditResult} from './editor/mock.js'
export {MockPromptBackend} from './inquire/mock.js'
