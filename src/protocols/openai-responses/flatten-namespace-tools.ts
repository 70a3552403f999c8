import { createHash } from 'node:crypto';

/** A function as the client names it: a plain name, or a name inside a `namespace` tool. */
export interface ClientFunctionName {
  name: string;
  /** the `namespace` tool the function belongs to; absent for a top-level function */
  namespace?: string;
}

/** The client's tools as far as naming goes: top-level function names and namespace groups of function names. */
export type NamedTool =
  { type: 'function'; name: string } | { type: 'namespace'; name: string; tools: Array<{ name: string }> };

/** How the functions of `namespace` tools are named for vendors, which know only flat function tools, and back. */
export interface FlatToolNames {
  /** the vendor's name for a client function (a plain name stays as it is) */
  vendorNameOf(function_: ClientFunctionName): string;
  /** the client's name (with its namespace) for a vendor's function name; a name the map does not know is plain */
  clientNameOf(vendorName: string): ClientFunctionName;
}

/** Vendors' function-name rule (OpenAI, Anthropic, Gemini and Bedrock all accept it). */
const vendorNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const maximumLength = 64;
/** Hex digits of the hash that keeps a shortened or colliding name unique. */
const hashLength = 8;

/**
 * Names every function of the client's `namespace` tools `<namespace>__<name>` for vendors. When that is not a
 * valid vendor name (over 64 characters, other characters) or is already taken (by a top-level function or an
 * earlier namespace function), the name is its valid characters cut to fit, then `_` and 8 hex digits of the
 * SHA-256 of namespace and name: deterministic, so every turn that sends the same tools (Codex sends them all each
 * turn) maps the same way, and replayed calls find their vendor names again. Top-level names are never changed.
 */
export function flattenNamespaceTools(tools: readonly NamedTool[]): FlatToolNames {
  const taken = new Set(tools.filter((tool) => tool.type === 'function').map((tool) => tool.name));
  const vendorNames = new Map<string, string>();
  const clientNames = new Map<string, ClientFunctionName>();
  for (const tool of tools) {
    if (tool.type !== 'namespace') continue;
    for (const member of tool.tools) {
      const key = keyOf(tool.name, member.name);
      if (vendorNames.has(key)) continue;
      const vendorName = uniqueVendorName(tool.name, member.name, taken);
      taken.add(vendorName);
      vendorNames.set(key, vendorName);
      clientNames.set(vendorName, { namespace: tool.name, name: member.name });
    }
  }
  const plainNames = new Set(tools.filter((tool) => tool.type === 'function').map((tool) => tool.name));
  return {
    vendorNameOf(function_) {
      if (function_.namespace === undefined) return function_.name;
      // A call of a namespace the request no longer lists (replayed history) is named as if it were listed alone.
      return (
        vendorNames.get(keyOf(function_.namespace, function_.name)) ??
        uniqueVendorName(function_.namespace, function_.name, plainNames)
      );
    },
    clientNameOf(vendorName) {
      return clientNames.get(vendorName) ?? { name: vendorName };
    },
  };
}

function keyOf(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`;
}

function uniqueVendorName(namespace: string, name: string, taken: ReadonlySet<string>): string {
  const joined = `${namespace}__${name}`;
  if (vendorNamePattern.test(joined) && !taken.has(joined)) return joined;
  const hash = createHash('sha256').update(keyOf(namespace, name)).digest('hex');
  const stem = joined.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, maximumLength - hashLength - 1);
  // A clash even with the hash (a client function named exactly so) takes the next hash digits.
  for (let offset = 0; offset + hashLength <= hash.length; offset += 1) {
    const candidate = `${stem}_${hash.slice(offset, offset + hashLength)}`;
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error(`No unique vendor name for ${namespace}.${name}`);
}
