// Issue 28, findings 5, 6 and 8 at the runner: real tool processes.
//  5. a tool whose own process exits while a background child holds its
//     stdout ends at once (after a short grace period): the group is
//     killed, the result delivered and marked; a setsid daemon is not waited for;
//  6. arguments of any size travel on stdin and in a 0600 temp file, never
//     in argv or the environment (10 MB works; it was `spawn E2BIG`);
//  8. the environment a tool gets holds no secrets by default.
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {isAlive, waitFor} from '../helpers/processes.js'
import {runLocalTool} from '../../src/lib/tool/runner.js'

describe('runLocalTool against hostile tools (issue 28)', function () {
  // Each of these hung for the life of the background child (25 s) before.
  this.timeout(15_000)
  let dir: string
  const leftovers: number[] = []
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jp-tool-'))
  })
  afterEach(() => {
    for (const pid of leftovers.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // gone
      }
    }
    rmSync(dir, {recursive: true, force: true})
  })

  const shell = (script: string) => ({program: script, args: [], shell: true})
  const pidFile = () => join(dir, 'pid')
  const readPid = () => Number(readFileSync(pidFile(), 'utf8').trim())

  describe('finding 5: the tool ends when its process ends', () => {
    it('a background child holding stdout (`sleep 25 &`): the result comes after the grace period, the child is killed, the result says so', async () => {
      const r = await runLocalTool({name: 'bg', command: shell(`sleep 25 & echo $! > '${pidFile()}'; echo done`), arguments: {}, cwd: dir, exitGraceMs: 300})
      expect(r.isError).to.equal(false)
      expect(r.exitCode).to.equal(0)
      expect(r.content.split('\n')[0]).to.equal('done')
      expect(r.content).to.include('left processes running').and.include('killed')
      expect(r.leftProcesses).to.equal(true)
      await waitFor(() => !isAlive(readPid()), 'the background sleep to be killed')
    })

    it('a background child that does not hold the output is killed too (it would outlive the call)', async () => {
      const r = await runLocalTool({name: 'bg', command: shell(`sleep 25 >/dev/null 2>&1 & echo $! > '${pidFile()}'; echo done`), arguments: {}, cwd: dir, exitGraceMs: 300})
      expect(r.content.split('\n')[0]).to.equal('done')
      expect(r.leftProcesses).to.equal(true)
      await waitFor(() => !isAlive(readPid()), 'the background sleep to be killed')
    })

    it('a setsid daemon holding stdout is not waited for (it left the group: not ours to kill), and the result says processes still hold the output', async () => {
      const r = await runLocalTool({name: 'daemon', command: shell(`setsid sleep 25 & echo $! > '${pidFile()}'; echo started`), arguments: {}, cwd: dir, exitGraceMs: 300})
      leftovers.push(readPid())
      expect(r.isError).to.equal(false)
      expect(r.content.split('\n')[0]).to.equal('started')
      expect(r.content).to.include('still hold its output')
      expect(isAlive(readPid()), 'the daemon is left alone').to.equal(true)
    })

    it('output written during the grace period is still delivered', async () => {
      const r = await runLocalTool({name: 'late', command: shell(`(sleep 0.1; echo late; sleep 25) & echo early`), arguments: {}, cwd: dir, exitGraceMs: 1000})
      expect(r.content).to.match(/^early\nlate\n/)
    })

    it('a well-behaved tool is not marked', async () => {
      const r = await runLocalTool({name: 'ok', command: shell('echo fine'), arguments: {}, cwd: dir})
      expect(r.content).to.equal('fine\n')
      expect(r.leftProcesses).to.equal(undefined)
    })
  })

  describe('finding 6: arguments of any size, never in argv or the environment', () => {
    it('10 MB of arguments arrive whole on stdin and in JP_TOOL_ARGUMENTS_FILE (0600, removed after); none in the environment', async () => {
      const args = {text: 'x'.repeat(10 * 1024 * 1024), n: 1}
      const json = JSON.stringify(args)
      const script =
        `stdin=$(wc -c); printf 'stdin=%s\\n' "$stdin"; ` +
        `printf 'file=%s mode=%s\\n' "$(wc -c < "$JP_TOOL_ARGUMENTS_FILE")" "$(stat -c %a "$JP_TOOL_ARGUMENTS_FILE")"; ` +
        `printf 'dirmode=%s\\n' "$(stat -c %a "$(dirname "$JP_TOOL_ARGUMENTS_FILE")")"; ` +
        `printf 'path=%s\\n' "$JP_TOOL_ARGUMENTS_FILE"; printf 'envsize=%s\\n' "$(env | wc -c)"; ` +
        `printf 'inenv=%s\\n' "\${JP_TOOL_ARGUMENTS+set}"`
      const r = await runLocalTool({name: 'big', command: shell(script), arguments: args, cwd: dir})
      expect(r.isError, r.content.slice(0, 300)).to.equal(false)
      const field = (k: string) => new RegExp(`^${k}=(.*)$`, 'm').exec(r.content)?.[1]?.trim()
      expect(Number(field('stdin'))).to.equal(Buffer.byteLength(json))
      expect(field('file')).to.equal(`${Buffer.byteLength(json)} mode=600`)
      expect(field('dirmode')).to.equal('700')
      expect(field('inenv'), 'JP_TOOL_ARGUMENTS is not set').to.equal('')
      expect(Number(field('envsize'))).to.be.below(1024 * 1024)
      const path = field('path')!
      expect(() => readFileSync(path)).to.throw(/ENOENT/)
    })
  })

  describe('finding 8: the environment holds no secrets by default', () => {
    const env = {OPENAI_API_KEY: 'sk-live-1', GITHUB_TOKEN: 'ghp-2', DB_PASSWORD: 'pw-3', AWS_SECRET_ACCESS_KEY: 'aws-4', MY_LLM_CRED: 'cred-5', HARMLESS: 'ok', PATH: process.env.PATH}
    async function seen(environment: Parameters<typeof runLocalTool>[0]['environment']): Promise<Record<string, string>> {
      const r = await runLocalTool({name: 'env', command: 'env', arguments: {}, cwd: dir, environment})
      expect(r.isError, r.content).to.equal(false)
      return Object.fromEntries(r.content.trimEnd().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
    }

    it('drops *KEY*, *SECRET*, *TOKEN*, *PASSWORD* and every provider key variable; keeps the rest', async () => {
      const got = await seen({base: env, providerKeyVars: ['MY_LLM_CRED']})
      for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'MY_LLM_CRED']) expect(got, name).not.to.have.property(name)
      expect(got.HARMLESS).to.equal('ok')
      expect(got.JP_TOOL_NAME).to.equal('env')
    })

    it('drops what the name rule missed (issue 42 finding 5): agents, credential files, kube config, AWS session, URLs with a password', async () => {
      const hostile = {
        SSH_AUTH_SOCK: '/tmp/ssh-agent.sock', GPG_AGENT_INFO: '/run/gpg:0:1', DATABASE_URL: 'postgres://app:hunter2@db/app',
        REDIS_URI: 'redis://:pw@cache:6379', SENTRY_DSN: 'https://abc:def@sentry.example/1', NPM_CONFIG__AUTH: 'bnBtOnB3',
        GOOGLE_APPLICATION_CREDENTIALS: '/home/u/gcp.json', MY_CREDENTIALS_FILE: '/c', GPG_PASSPHRASE: 'pp', KUBECONFIG: '/home/u/.kube/config',
        AWS_ACCESS_KEY_ID: 'AKIA', AWS_SESSION_TOKEN: 'tok', AWS_SESSION_EXPIRATION: 'x', AWS_WEB_IDENTITY_TOKEN_FILE: '/w',
        OTHER: 'scheme://user:pass@host/path',
        // kept: no credential in them
        AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'eu-west-1', AWS_PROFILE: 'dev', HOMEPAGE_URL: 'https://example.com/a@b', PATH: process.env.PATH,
      }
      const got = await seen({base: hostile, providerKeyVars: []})
      for (const name of ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DATABASE_URL', 'REDIS_URI', 'SENTRY_DSN', 'NPM_CONFIG__AUTH', 'GOOGLE_APPLICATION_CREDENTIALS', 'MY_CREDENTIALS_FILE', 'GPG_PASSPHRASE', 'KUBECONFIG', 'AWS_ACCESS_KEY_ID', 'AWS_SESSION_TOKEN', 'AWS_SESSION_EXPIRATION', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'OTHER']) {
        expect(got, name).not.to.have.property(name)
      }
      expect(got.AWS_REGION).to.equal('eu-west-1')
      expect(got.AWS_DEFAULT_REGION).to.equal('eu-west-1')
      expect(got.AWS_PROFILE).to.equal('dev')
      expect(got.HOMEPAGE_URL).to.equal('https://example.com/a@b')
      // keep still passes one by name
      const kept = await seen({base: hostile, providerKeyVars: [], policy: {keep: ['KUBECONFIG', 'DATABASE_URL']}})
      expect(kept.KUBECONFIG).to.equal('/home/u/.kube/config')
      expect(kept.DATABASE_URL).to.equal('postgres://app:hunter2@db/app')
    })

    it('keep lets a named secret through; drop removes more; drop wins', async () => {
      const got = await seen({base: env, providerKeyVars: [], policy: {keep: ['GITHUB_TOKEN', 'DB_*'], drop: ['HARM*', 'DB_PASSWORD']}})
      expect(got.GITHUB_TOKEN).to.equal('ghp-2')
      expect(got).not.to.have.property('DB_PASSWORD')
      expect(got).not.to.have.property('HARMLESS')
      expect(got).not.to.have.property('OPENAI_API_KEY')
    })

    it('inherit = "core" passes only the basics (and keep), "none" nothing but jp\'s own variables (and keep)', async () => {
      const core = await seen({base: {...env, HOME: '/h', LANG: 'C.UTF-8'}, providerKeyVars: [], policy: {inherit: 'core', keep: ['HARMLESS']}})
      expect(Object.keys(core).sort()).to.deep.equal(['HARMLESS', 'HOME', 'JP_TOOL_ARGUMENTS_FILE', 'JP_TOOL_NAME', 'LANG', 'PATH'])
      const none = await seen({base: env, providerKeyVars: [], policy: {inherit: 'none', keep: ['PATH']}})
      expect(Object.keys(none).sort()).to.deep.equal(['JP_TOOL_ARGUMENTS_FILE', 'JP_TOOL_NAME', 'PATH'])
    })
  })
})

describe('runLocalTool: the arguments file', () => {
  it('is written even for an empty argument object, and the tool reads it like stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jp-tool-'))
    try {
      writeFileSync(join(dir, 't.sh'), '#!/bin/sh\ncat "$JP_TOOL_ARGUMENTS_FILE"; echo; cat\n', {mode: 0o755})
      const r = await runLocalTool({name: 't', command: join(dir, 't.sh'), arguments: {a: 1}, cwd: dir})
      expect(r.content).to.equal('{"a":1}\n{"a":1}')
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })
})
