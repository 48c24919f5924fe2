export {LineEditor} from './line-editor.js'
