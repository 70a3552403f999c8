import { Agent } from 'undici';

/**
 * The undici package's own Agent, for test requests whose body is the package's FormData. Without it, `request()`
 * uses undici's global dispatcher, which the package shares with Node's bundled copy of undici. On Node 24, once
 * anything in the process has called the global `fetch` (the OpenAI SDK does), that dispatcher is the bundled copy's,
 * and it cannot encode the package's FormData ("TypeError: action is not a function").
 */
export const undiciTestAgent = new Agent();
