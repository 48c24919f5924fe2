// "Remember for this turn" (Y / N at the permission prompt). One instance
// per turn: the turn loop creates it when the user's message is sent and drops
// it when the turn ends, so a remembered answer never outlives the turn.
export type RememberedDecision = 'run' | 'skip'

export class TurnToolDecisions {
  private readonly decisions = new Map<string, RememberedDecision>()

  get(tool: string): RememberedDecision | undefined {
    return this.decisions.get(tool)
  }

  remember(tool: string, decision: RememberedDecision): void {
    this.decisions.set(tool, decision)
  }
}
