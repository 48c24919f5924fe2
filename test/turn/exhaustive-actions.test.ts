// Every menu action type is handled by an exhaustive switch whose default is
// `unreachable(value: never)` (src/lib/text/unreachable.ts): adding a member
// to any of the unions below and handling it nowhere must fail to compile,
// in the module that acts on it — never fall through to "done", "abort the
// stream" or "escalate" as the turn loop's old `if` chain did. The real code
// is compiled with the new member added in memory (test/helpers/type-check.ts).
import {expect} from 'chai'
import {typeErrorsWith, type SourceEdit} from '../helpers/type-check.js'

const ROOTS = ['src/lib/turn/turn-loop.ts', 'src/lib/turn/menu-effect.ts', 'src/lib/interrupt/gate.ts', 'src/lib/interrupt/handler.ts', 'src/lib/tool/coordinator.ts', 'src/lib/tool/prompter.ts']

const CASES: Array<{union: string; edit: SourceEdit; failsIn: string[]}> = [
  {
    union: 'StreamingInterruptAction (the streaming menu)',
    edit: {file: 'src/lib/interrupt/handler.ts', from: "  | {type: 'resume'}\n", to: "  | {type: 'resume'}\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/turn/menu-effect.ts'],
  },
  {
    union: 'TurnInterruptAction (the turn menu)',
    edit: {file: 'src/lib/interrupt/handler.ts', from: 'export type TurnInterruptAction =\n', to: "export type TurnInterruptAction =\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/turn/menu-effect.ts'],
  },
  {
    union: 'MenuKeyAction (what a key of the interrupt menus does)',
    edit: {file: 'src/lib/interrupt/handler.ts', from: "export type MenuKeyAction = 'continue'", to: "export type MenuKeyAction = 'new-action' | 'continue'"},
    failsIn: ['src/lib/interrupt/handler.ts'],
  },
  {
    union: "MenuEffect (the turn's next move after a menu)",
    edit: {file: 'src/lib/turn/menu-effect.ts', from: 'export type MenuEffect =\n', to: "export type MenuEffect =\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/turn/turn-loop.ts'],
  },
  {
    union: 'FallbackInterruptAction (the fallback menu)',
    edit: {file: 'src/lib/interrupt/handler.ts', from: "export type FallbackInterruptAction = {type: 'continue'}", to: "export type FallbackInterruptAction = {type: 'new-action'} | {type: 'continue'}"},
    failsIn: ['src/lib/interrupt/gate.ts'],
  },
  {
    union: 'ToolInterruptAction (the tool menu)',
    edit: {file: 'src/lib/tool/coordinator.ts', from: 'export type ToolInterruptAction =\n', to: "export type ToolInterruptAction =\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/tool/coordinator.ts'],
  },
  {
    union: 'ToolPromptExit (the tool prompts’ [b,r,s,?] menu)',
    edit: {file: 'src/lib/tool/prompter.ts', from: 'export type ToolPromptExit =\n', to: "export type ToolPromptExit =\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/tool/coordinator.ts'],
  },
  {
    union: 'PermissionResult (Run local tool NAME?)',
    edit: {file: 'src/lib/tool/prompter.ts', from: 'export type PermissionResult =\n', to: "export type PermissionResult =\n  | {type: 'new-action'; remember: boolean}\n"},
    failsIn: ['src/lib/tool/coordinator.ts'],
  },
  {
    union: 'ArgumentEditResult (editing a call’s arguments)',
    edit: {file: 'src/lib/tool/prompter.ts', from: 'export type ArgumentEditResult =\n', to: "export type ArgumentEditResult =\n  | {type: 'new-action'}\n"},
    failsIn: ['src/lib/tool/prompter.ts'],
  },
  {
    union: 'interrupt.streaming.action (a configured answer)',
    edit: {file: 'src/lib/config/types.ts', from: "export type StreamingAction = 'prompt'", to: "export type StreamingAction = 'new-action' | 'prompt'"},
    failsIn: ['src/lib/interrupt/handler.ts'],
  },
  {
    union: 'interrupt.tool_call.action (a configured answer)',
    edit: {file: 'src/lib/config/types.ts', from: "export type ToolCallAction = 'prompt'", to: "export type ToolCallAction = 'new-action' | 'prompt'"},
    failsIn: ['src/lib/interrupt/handler.ts'],
  },
]

describe('menu actions: every union is switched over exhaustively (compile check)', function () {
  this.timeout(120_000)

  it('the code compiles as it is (the check below is not a false alarm)', () => {
    expect(typeErrorsWith(ROOTS, {file: 'src/lib/text/unreachable.ts', from: 'export', to: 'export'})).to.deep.equal([])
  })

  // One compile with every union's new member added at once (a program's
  // type check is most of the cost: one instead of one per union). Each
  // member has a name of its own, so each union's errors are told apart.
  const named = CASES.map((c, i) => ({...c, member: `new-action-${i}`, edit: {...c.edit, to: c.edit.to.replaceAll('new-action', `new-action-${i}`)}}))
  let all: string[] | undefined
  const errorsWithAll = () => (all ??= typeErrorsWith(ROOTS, named.map((c) => c.edit), [...new Set(named.flatMap((c) => c.failsIn))]))

  for (const c of named) {
    it(`a new member of ${c.union} handled nowhere fails to compile in ${c.failsIn.join(', ')}`, () => {
      expect(c.edit.to, 'the edit adds the named member').to.include(`'${c.member}'`)
      const errors = errorsWithAll()
      for (const file of c.failsIn) {
        const here = errors.filter((e) => e.startsWith(`${file}:`) && /never/.test(e) && e.includes(`"${c.member}"`))
        expect(here, `errors: ${errors.join('\n') || '(none)'}`).to.not.be.empty
      }
    })
  }
})
