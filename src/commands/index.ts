// Every command, by oclif id (oclif's "explicit" command strategy). The bundle
// ships one file, so oclif cannot discover commands by globbing a directory:
// a command file not listed here does not exist for `jp`
// (test/startup/commands.test.ts fails when one is missing).
import Query from './query.js'
import Init from './init.js'
import Trust from './trust.js'
import Help from './help.js'
import Completion from './completion.js'
import ConfigGet from './config/get.js'
import ConfigSet from './config/set.js'
import ConfigShow from './config/show.js'
import ConversationCode from './conversation/code.js'
import ConversationEdit from './conversation/edit.js'
import ConversationExport from './conversation/export.js'
import ConversationFork from './conversation/fork.js'
import ConversationGrep from './conversation/grep.js'
import ConversationLs from './conversation/ls.js'
import ConversationPath from './conversation/path.js'
import ConversationRm from './conversation/rm.js'
import ConversationShow from './conversation/show.js'
import ConversationUse from './conversation/use.js'
import McpLs from './mcp/ls.js'
import Models from './models.js'
import McpTools from './mcp/tools.js'

export const COMMANDS = {
  query: Query,
  init: Init,
  trust: Trust,
  help: Help,
  completion: Completion,
  'config:get': ConfigGet,
  'config:set': ConfigSet,
  'config:show': ConfigShow,
  'conversation:code': ConversationCode,
  'conversation:edit': ConversationEdit,
  'conversation:export': ConversationExport,
  'conversation:fork': ConversationFork,
  'conversation:grep': ConversationGrep,
  'conversation:ls': ConversationLs,
  'conversation:path': ConversationPath,
  'conversation:rm': ConversationRm,
  'conversation:show': ConversationShow,
  'conversation:use': ConversationUse,
  'mcp:ls': McpLs,
  'mcp:tools': McpTools,
  models: Models,
}
