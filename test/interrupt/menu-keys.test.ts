// The interrupt menus share one dispatch (InterruptHandler.answer/act): a key
// is an action by one table, MENU_KEY_ACTIONS. A menu option whose key has no
// action there would do nothing but show the menu again, so every key of
// every menu must be in it; and what an answer does to the turn is one map
// (turn/menu-effect.ts).
import {expect} from 'chai'
import {FALLBACK_MENU, MENU_KEY_ACTIONS, STREAMING_MENU, TOOL_MENU, TOOL_PROMPT_MENU, TURN_MENU} from '../../src/lib/interrupt/handler.js'
import {keepsStream, menuEffect} from '../../src/lib/turn/menu-effect.js'

const MENUS = {STREAMING_MENU, TOOL_MENU, TURN_MENU, TOOL_PROMPT_MENU, FALLBACK_MENU}

describe('the interrupt menus: one table of key actions, one map of their effects', () => {
  for (const [name, menu] of Object.entries(MENUS)) {
    it(`every key of ${name} has its action`, () => {
      const missing = menu.map((o) => o.key).filter((key) => MENU_KEY_ACTIONS[key] === undefined)
      expect(missing, `keys of ${name} with no action in MENU_KEY_ACTIONS`).to.deep.equal([])
    })
  }

  it('one meaning per key: no two keys share an action', () => {
    const actions = Object.values(MENU_KEY_ACTIONS)
    expect(new Set(actions).size).to.equal(actions.length)
  })

  it("each answer's move: on, continue, reply, or the turn's end", () => {
    expect(menuEffect(undefined)).to.deep.equal({type: 'go-on'})
    expect(menuEffect({type: 'resume'})).to.deep.equal({type: 'go-on'})
    expect(menuEffect({type: 'continue'})).to.deep.equal({type: 'continue'})
    expect(menuEffect({type: 'reply', text: 'x', fromEditor: true})).to.deep.equal({type: 'reply', text: 'x', fromEditor: true})
    expect(menuEffect({type: 'stop'})).to.deep.equal({type: 'end', outcome: {type: 'stopped'}})
    expect(menuEffect({type: 'abort'})).to.deep.equal({type: 'end', outcome: {type: 'aborted'}})
    expect(menuEffect({type: 'escalate'})).to.deep.equal({type: 'end', outcome: {type: 'shutdown'}})
  })

  it('the stream goes on only when resumed or continued', () => {
    const kept = (['resume', 'continue', 'stop', 'abort', 'escalate'] as const).filter((type) => keepsStream({type}))
    expect(kept).to.deep.equal(['resume', 'continue'])
    expect(keepsStream({type: 'reply', text: 'x', fromEditor: false})).to.equal(false)
  })
})
