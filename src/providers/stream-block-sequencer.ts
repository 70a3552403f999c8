import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';
import type { VendorArtefact } from '../core/canonical/vendor-artefact.js';

/** The kind of a block that flows from plain deltas (one open at a time). */
type FlowingBlockKind = 'text' | 'reasoning';

/**
 * Turns a vendor's deltas into canonical block parts with a dense `blockIndex`, so every decoder stays a plain
 * mapping of vendor events: text and reasoning deltas open a block when the open one is of another kind (ending it),
 * tool calls are opened and ended by a key of the decoder's choice (a vendor block index or call counter), and
 * `endAll` closes whatever is still open at the finish. Every method returns the parts to emit, in order.
 */
export class StreamBlockSequencer {
  private nextBlockIndex = 0;
  private flowing: { kind: FlowingBlockKind; blockIndex: number } | undefined;
  private readonly openToolCalls = new Map<string | number, number>();

  /** Appends text, opening a text block when none is open. Empty text still opens the block. */
  text(text: string): CanonicalStreamPart[] {
    return this.flow('text', text);
  }

  /** Appends reasoning text, opening a reasoning block when none is open. */
  reasoning(text: string): CanonicalStreamPart[] {
    return this.flow('reasoning', text);
  }

  /** Opens a new block of a kind even when one of that kind is open (vendors with explicit block starts). */
  startFlowing(kind: FlowingBlockKind): CanonicalStreamPart[] {
    const parts = this.endFlowing();
    const blockIndex = this.nextBlockIndex++;
    this.flowing = { kind, blockIndex };
    parts.push(kind === 'text' ? { type: 'text-start', blockIndex } : { type: 'reasoning-start', blockIndex });
    return parts;
  }

  /** Ends the open text or reasoning block, if any; a reasoning block carries the vendor's artefact. */
  endFlowing(artefact?: VendorArtefact): CanonicalStreamPart[] {
    const open = this.flowing;
    if (!open) return [];
    this.flowing = undefined;
    if (open.kind === 'text') return [{ type: 'text-end', blockIndex: open.blockIndex }];
    return [{ type: 'reasoning-end', blockIndex: open.blockIndex, ...(artefact ? { artefact } : {}) }];
  }

  /** Starts a tool call under `key` (ending the open text or reasoning block first). */
  startToolCall(key: string | number, callId: string, name: string): CanonicalStreamPart[] {
    const parts = this.endFlowing();
    const blockIndex = this.nextBlockIndex++;
    this.openToolCalls.set(key, blockIndex);
    parts.push({ type: 'tool-call-start', blockIndex, callId, name });
    return parts;
  }

  /** A piece of an open tool call's arguments; nothing when no call is open under `key` or the piece is empty. */
  toolCallArguments(key: string | number, argumentsDelta: string): CanonicalStreamPart[] {
    const blockIndex = this.openToolCalls.get(key);
    if (blockIndex === undefined || !argumentsDelta) return [];
    return [{ type: 'tool-call-delta', blockIndex, argumentsDelta }];
  }

  /** Ends the tool call open under `key`, with its artefact; nothing when none is open. */
  endToolCall(key: string | number, artefact?: VendorArtefact): CanonicalStreamPart[] {
    const blockIndex = this.openToolCalls.get(key);
    if (blockIndex === undefined) return [];
    this.openToolCalls.delete(key);
    return [{ type: 'tool-call-end', blockIndex, ...(artefact ? { artefact } : {}) }];
  }

  /** The kind of the open text or reasoning block, if one is open. */
  get flowingKind(): FlowingBlockKind | undefined {
    return this.flowing?.kind;
  }

  /** True when a tool call is open under `key`. */
  hasToolCall(key: string | number): boolean {
    return this.openToolCalls.has(key);
  }

  /** Ends every open block, the flowing one first, then tool calls in start order (at the vendor's finish). */
  endAll(): CanonicalStreamPart[] {
    const parts = this.endFlowing();
    const keys = [...this.openToolCalls.entries()].sort((left, right) => left[1] - right[1]).map(([key]) => key);
    for (const key of keys) parts.push(...this.endToolCall(key));
    return parts;
  }

  private flow(kind: FlowingBlockKind, text: string): CanonicalStreamPart[] {
    const parts = this.flowing?.kind === kind ? [] : this.startFlowing(kind);
    const blockIndex = (this.flowing as { blockIndex: number }).blockIndex;
    if (text)
      parts.push(
        kind === 'text' ? { type: 'text-delta', blockIndex, text } : { type: 'reasoning-delta', blockIndex, text },
      );
    return parts;
  }
}
