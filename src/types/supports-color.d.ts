// supports-color 8 (oclif's: its help is in colour only where this says so for stdout and stderr) ships no types.
declare module 'supports-color' {
  interface Level {
    level: number
  }
  const supportsColor: {stdout: Level | false; stderr: Level | false}
  export default supportsColor
}
