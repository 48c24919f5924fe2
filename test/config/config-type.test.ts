// The configuration's TypeScript shape (`Config`, src/lib/config/types.ts) is
// tied to its schema (CONFIG_SCHEMA) and the provider table (PROVIDERS):
// test/config/types/config-schema.ts compiles only while every key and type
// agree. The run-time half checks what the types cannot: that the schema,
// the defaults, the key docs and the wire table all come from the one table.
import {expect} from 'chai'
import {defaultConfig} from '../../src/lib/config/defaults.js'
import {KEY_DOCS} from '../../src/lib/config/key-docs.js'
import {PROVIDER_NAMES, PROVIDERS} from '../../src/lib/config/providers.js'
import {schemaAt} from '../../src/lib/config/schema.js'
import {resolveModel} from '../../src/lib/llm/index.js'
import {typeErrors} from '../helpers/type-check.js'

describe('config: one provider table, and Config tied to the schema', function () {
  this.timeout(60_000)

  it('Config and SchemaValue<typeof CONFIG_SCHEMA> are the same type (type test)', () => {
    expect(typeErrors('test/config/types/config-schema.ts')).to.deep.equal([])
  })

  it('every provider row has its schema table, defaults and docs', () => {
    const defaults = defaultConfig({})
    for (const name of PROVIDER_NAMES) {
      const spec = PROVIDERS[name] as {baseUrl: string; apiKeyEnv?: string}
      expect(schemaAt(['providers', 'llm', name, 'base_url']), name).to.deep.equal({kind: 'string'})
      expect(defaults.providers.llm[name], name).to.deep.equal(spec.apiKeyEnv ? {base_url: spec.baseUrl, api_key_env: spec.apiKeyEnv} : {base_url: spec.baseUrl})
      expect(KEY_DOCS[`providers.llm.${name}`]?.description, name).to.include(`The ${name} provider`)
      expect(KEY_DOCS['assistant.model.id'].description, name).to.include(`\`${name}/`)
    }
    // …and nothing else is a provider.
    const llm = schemaAt(['providers', 'llm']) as {fields: Record<string, unknown>}
    expect(Object.keys(llm.fields).filter((k) => k !== 'timeout_secs')).to.have.members(PROVIDER_NAMES)
  })

  it('a base-URL variable of the table replaces only its provider’s default', () => {
    const env = {OPENAI_BASE_URL: ' http://127.0.0.1:9/v1 '}
    const llm = defaultConfig(env).providers.llm
    expect(llm.openai.base_url).to.equal('http://127.0.0.1:9/v1')
    expect(llm.openrouter.base_url).to.equal(PROVIDERS.openrouter.baseUrl)
  })

  it('model ids resolve through the table’s wire column; unknown providers list the table', async () => {
    const llm = defaultConfig({}).providers.llm
    await resolveModel('nope/x', llm, {}).then(
      () => expect.fail('resolved an unknown provider'),
      (e: Error) => expect(e.message).to.equal(`unknown provider "nope" in model id "nope/x" (known: echo, ${PROVIDER_NAMES.join(', ')})`),
    )
    // llamacpp speaks the OpenAI wire format: an Anthropic-only reasoning budget is refused for it, by name.
    await resolveModel('llamacpp/m', llm, {}, {reasoning: '4096'}).then(
      () => expect.fail('accepted a budget'),
      (e: Error) => expect(e.message).to.include('llamacpp has no thinking budget'),
    )
    const anthropic = await resolveModel('anthropic/m', llm, {ANTHROPIC_API_KEY: 'k'}, {reasoning: '4096'})
    expect(anthropic.provider.name).to.equal('anthropic')
  })
})
