// The `default` of a switch that handles every member of a union type: it
// compiles only while no member is missing (`value` must be `never`), so a
// new menu action or answer cannot silently fall through to some other
// branch. Reaching it at run time is a bug in jp, said as such.

/** Throws for a value the type system says cannot exist; `what` names the union (`streaming action`). */
export function unreachable(value: never, what: string): never {
  throw new Error(`internal error: unhandled ${what} ${JSON.stringify(value)}`)
}
