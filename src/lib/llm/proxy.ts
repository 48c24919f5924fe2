/// <reference path="../../types/proxy-from-env.d.ts" />
// Which agent a provider request goes through: a proxy from HTTPS_PROXY /
// HTTP_PROXY / ALL_PROXY unless NO_PROXY exempts the host (proxy-from-env
// reads both cases of each, as curl does), tunnelled with CONNECT for https
// and sent as an absolute-URI request for http. The proxy agents are loaded
// only when a proxy applies.
import type {Agent} from 'node:http'

/** The agent for `url`, or undefined for a direct connection. */
export async function proxyAgentFor(url: URL): Promise<Agent | undefined> {
  const {getProxyForUrl} = await import('proxy-from-env')
  const proxy = getProxyForUrl(url.href)
  if (!proxy) return undefined
  if (url.protocol === 'https:') {
    const {HttpsProxyAgent} = await import('https-proxy-agent')
    return new HttpsProxyAgent(proxy)
  }
  const {HttpProxyAgent} = await import('http-proxy-agent')
  return new HttpProxyAgent(proxy)
}
