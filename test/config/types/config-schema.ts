// Compile-time ties between the configuration's TypeScript shape and its
// schema (checked by test/config/config-type.test.ts and by tsc over the
// tests). No line here runs: each one is a type that compiles only while the
// tie holds, and each `@ts-expect-error` proves the check can fail.
import type {ProviderName} from '../../../src/lib/config/providers.js'
import {PROVIDERS} from '../../../src/lib/config/providers.js'
import type {CONFIG_SCHEMA, PartialConfig, SchemaValue} from '../../../src/lib/config/schema.js'
import type {Config} from '../../../src/lib/config/types.js'

/** Exactly the same type (not merely mutually assignable), after flattening intersections. */
type Equal<A, B> = (<T>() => T extends Flat<A> ? 1 : 2) extends <T>() => T extends Flat<B> ? 1 : 2 ? true : false
type Flat<T> = T extends (infer U)[] ? Flat<U>[] : T extends object ? {[K in keyof T as K]: Flat<T[K]>} : T

const assert = <T extends true>(): T => true as T

/** Every key of the schema is a key of Config with the same type, and the other way round. */
export const layerIsSchema = assert<Equal<PartialConfig, SchemaValue<typeof CONFIG_SCHEMA>>>()

// A key Config has and the schema lacks is caught…
// @ts-expect-error the schema has no `extra` table
export const extraKey = assert<Equal<PartialConfig & {extra?: {on?: boolean}}, SchemaValue<typeof CONFIG_SCHEMA>>>()
// …and so is a key whose type differs.
// @ts-expect-error editor.backend is a string in the schema
export const wrongType = assert<Equal<Omit<PartialConfig, 'editor'> & {editor?: {backend?: number}}, SchemaValue<typeof CONFIG_SCHEMA>>>()

/** The provider tables of Config are the rows of PROVIDERS. */
export const providersAreTheTable = assert<Equal<ProviderName, keyof typeof PROVIDERS>>()
export const configProviders = assert<Equal<Exclude<keyof Config['providers']['llm'], 'timeout_secs'>, ProviderName>>()
