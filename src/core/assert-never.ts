/** The exhaustiveness check every `switch` over a union ends with: a new member fails to compile here. */
export function assertNever(value: never, what: string): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
