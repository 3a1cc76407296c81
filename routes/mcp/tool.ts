/**
 * How a tool is declared once: name, texts, the scopes it needs, zod input and output schemas
 * and a handler over the app verbs. `server.ts` registers every tool from these declarations
 * and `/.well-known/mcp.json` lists them, so the two never drift.
 * @module
 */
import type { z } from "zod";
import type { AppContext, McpCaller } from "../../app/mod.ts";
import type { Scope } from "../../domain/mod.ts";

/** Who may call tools: an API key or an OAuth access token (sessions never reach /api/mcp). */
export type ToolCaller = McpCaller;

/** Hints to MCP clients about a tool's effects (MCP `ToolAnnotations`). */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

/** One MCP tool; read-only (`readOnlyHint`) unless its `hints` say otherwise. */
export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** snake_case, at most 64 characters. */
  readonly name: string;
  readonly title: string;
  /** What the model reads: what it returns and when to use it. */
  readonly description: string;
  /** What it changes; absent: {@link READ_ONLY}. */
  readonly hints?: ToolHints;
  /** Scopes the caller must hold besides `mcp:invoke`; a missing one is a tool error. */
  readonly scopes: readonly Scope[];
  readonly input: I;
  readonly output: O;
  /** Computes the structured result; rejects with typed errors (domain/errors.ts). */
  run(ctx: AppContext, caller: ToolCaller, args: z.output<I>): Promise<z.input<O>>;
}

/** Identity helper that keeps each tool file's types precise. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: McpTool<I, O>,
): McpTool<I, O> {
  return tool;
}

/** Annotations of the tools that only read statusd's own store. */
export const READ_ONLY: ToolHints = { readOnlyHint: true, openWorldHint: false };
