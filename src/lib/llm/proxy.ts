/// <reference path="../../types/proxy-from-env.d.ts" />
// Which agent a provider request goes through: a proxy from HTTPS_PROXY /
// HTTP_PROXY / ALL_PROXY unless NO_PROXY exempts the host (proxy-from-env
// reads both cases of each, as curl does), tunnelled with CONNECT for https
// and sent as an absolute-URI request for http. The proxy agents are loaded
// only when a proxy applies.
import type {Agent} from 'node:http'
import {ProviderError} from './types.js'

/** The agent for `url`, or undefined for a direct connection; a proxy setting that is no URL is a ProviderError naming it. */
export async function proxyAgentFor(url: URL, env: NodeJS.ProcessEnv = process.env): Promise<Agent | undefined> {
  const {getProxyForUrl} = await import('proxy-from-env')
  let proxy = getProxyForUrl(url.href)
  if (!proxy) return undefined
  const variable = proxyVariable(url.protocol.slice(0, -1), env)
  // proxy-from-env gives a scheme-less proxy the target's scheme (TLS to the
  // proxy for an https target); curl, Go and requests take it as http://.
  if (variable && !env[variable]!.includes('://')) proxy = `http://${env[variable]!.trim()}`
  try {
    new URL(proxy)
  } catch {
    throw new ProviderError(`${variable ?? 'the proxy setting'} = ${JSON.stringify(proxy)} is not a proxy URL (e.g. http://proxy.example.com:3128)`, {provider: 'proxy', retryable: false})
  }
  if (url.protocol === 'https:') {
    const {HttpsProxyAgent} = await import('https-proxy-agent')
    return new HttpsProxyAgent(proxy)
  }
  const {HttpProxyAgent} = await import('http-proxy-agent')
  return new HttpProxyAgent(proxy)
}

/** The variable proxy-from-env took the proxy from (its order: npm_config_x, x, X; the scheme's, then all_proxy). */
function proxyVariable(scheme: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const key of [`${scheme}_proxy`, 'all_proxy']) {
    for (const name of [`npm_config_${key}`, key, key.toUpperCase()]) if (env[name]) return name
  }
  return undefined
}
