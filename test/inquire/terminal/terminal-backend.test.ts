// TerminalPromptBackend over in-memory streams (the context seam): the
// prompts it maps onto the widgets, and the reply history it keeps.
import type {PassThrough} from 'node:stream'
import {expect} from 'chai'
import {memoryStreams} from '../../helpers/memory-streams.js'
import {TerminalPromptBackend} from '../../../src/lib/inquire/terminal-backend.js'
import {isPromptCancelled} from '../../../src/lib/inquire/types.js'

const streams = memoryStreams

/** Feeds `keys` once the prompt is listening. */
function typeLater(input: PassThrough, ...keys: string[]): void {
  setImmediate(() => {
    for (const k of keys) input.write(k)
  })
}

describe('TerminalPromptBackend', () => {
  it('confirm: y/n keys and Enter for the default', async () => {
    const s = streams()
    const backend = new TerminalPromptBackend({context: {input: s.input, output: s.output, env: {TERM: 'xterm'}}})
    typeLater(s.input, 'n')
    expect(await backend.confirm('Re-open the editor?', true)).to.equal(false)
    typeLater(s.input, '\r')
    expect(await backend.confirm('Re-open the editor?', true)).to.equal(true)
    expect(s.written()).to.contain('Re-open the editor? [y,n,?] ')
  })

  it('confirm rejects on Ctrl+C as interrupted', async () => {
    const s = streams()
    const backend = new TerminalPromptBackend({context: {input: s.input, output: s.output}})
    typeLater(s.input, '\x03')
    const error = await backend.confirm('Sure?', false).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(isPromptCancelled(error)).to.equal(true)
    expect((error as {reason: string}).reason).to.equal('interrupted')
  })

  it('text: edits the default and submits; Ctrl+C rejects', async () => {
    const s = streams()
    const backend = new TerminalPromptBackend({context: {input: s.input, output: s.output, env: {TERM: 'xterm'}}})
    typeLater(s.input, '\x7f', '2', '\r')
    expect(await backend.text('Title:', 'draft 1')).to.equal('draft 2')
    typeLater(s.input, '\x03')
    const error = await backend.text('Title:').catch((e: unknown) => e)
    expect(isPromptCancelled(error)).to.equal(true)
  })

  it('inlineReply: passes editorEscape through and recalls a cancelled draft with Up', async () => {
    const s = streams()
    const backend = new TerminalPromptBackend({context: {input: s.input, output: s.output, env: {TERM: 'xterm'}}})
    const request = {message: 'Reply:', initialText: '', editMode: 'emacs' as const, editorEscape: false, history: ['earlier reply']}
    typeLater(s.input, 'half-written', '\x18', '\x03')
    expect(await backend.inlineReply(request)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: 'half-written'})
    expect(s.written()).to.not.contain('Ctrl+X')
    typeLater(s.input, '\x1b[A', '\r')
    expect(await backend.inlineReply(request)).to.deep.equal({type: 'submit', text: 'half-written'})
    typeLater(s.input, '\x1b[A', '\x1b[A', '\x1b[A', '\r')
    expect(await backend.inlineReply({...request, editorEscape: true})).to.deep.equal({type: 'submit', text: 'earlier reply'})
    typeLater(s.input, 'x', '\x18')
    expect(await backend.inlineReply({...request, editorEscape: true})).to.deep.equal({type: 'open-editor', currentText: 'x'})
  })

  it('inlineReply without history (a tool prompt) neither records a cancelled draft nor walks the replies', async () => {
    const s = streams()
    const backend = new TerminalPromptBackend({context: {input: s.input, output: s.output, env: {TERM: 'xterm'}}})
    const reply = {message: 'Reply:', initialText: '', editMode: 'emacs' as const, editorEscape: false, history: ['earlier reply']}
    const toolEdit = {message: 'Edit arguments', initialText: '{"a":1}', editMode: 'emacs' as const, editorEscape: false}
    typeLater(s.input, 'X', '\x03')
    expect(await backend.inlineReply(toolEdit)).to.deep.equal({type: 'cancelled', reason: 'interrupted', text: '{"a":1}X'})
    typeLater(s.input, '\x1b[A', '\r')
    expect(await backend.inlineReply(reply)).to.deep.equal({type: 'submit', text: 'earlier reply'})
    typeLater(s.input, '\x1b[A', '\r')
    expect(await backend.inlineReply(toolEdit)).to.deep.equal({type: 'submit', text: '{"a":1}'})
  })
})
