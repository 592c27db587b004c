import type * as z from "zod";
import type { McpScope } from "../connections/connection";
import type { Caller } from "../operations/caller";
import type { EndpointType } from "../rate-limit/endpoint-types";
import type { Operation } from "../rate-limit/operation";
import type { ConsumeResult } from "../rate-limit/rate-limiter";
import type { Confirmation } from "./confirmation";
import type { McpPrincipal } from "./principal";

/** A person's answer to a spending question; `batchId`: the batch the confirmation is for (MRTR), made once. */
interface Confirmed {
  answer: Confirmation;
  batchId?: string;
}

/** What a running tool may do besides its operation: report progress, ask its user. */
export interface ToolContext {
  /** Sends notifications/progress when the call carried a progress token; otherwise nothing. */
  progress(progress: number, total: number, message: string): Promise<void>;
  /**
   * Asks the user to confirm spending at most `maxCredits`; null when the client cannot be asked (no
   * elicitation capability). On the 2026-07-28 revision the first call throws the question (ProtocolAnswer).
   */
  confirm(question: { message: string; maxCredits: number }): Promise<Confirmed | null>;
  /** The public origin of the server (the status URLs webhooks carry are absolute). */
  origin: string;
  /** Who calls: its scopes and its allowance. */
  principal: McpPrincipal;
  /** Whether the client declared the tasks extension (io.modelcontextprotocol/tasks) on this request. */
  tasks: boolean;
  /**
   * The REST operations each endpoint type counts, in the caller's environment (GET /me/rate-limits' list):
   * given by the Worker's entry, which serves the routes, so that this door reads none of them.
   */
  counted: Record<EndpointType, string[]>;
}

/**
 * One MCP tool: its name, documentation, schemas and annotations, and the operation it runs, whose
 * endpoint type its call counts as (as the REST route's that runs it). Arguments reach `run` as sent:
 * the operation's own parser validates them, so a tool error carries the REST problem code.
 */
export interface ToolDeclaration {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodType;
  /** What the caller must be allowed: read (reads, estimates), spend (paid tools) or erase (privacy acts). */
  scope: McpScope;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** The operation it runs: its call counts as the endpoint type the operation declares. */
  operation: Operation;
  /** Also reads every endpoint type's usage in the same count (get_rate_limits). */
  withUsage?: boolean;
  run(caller: Caller, args: Record<string, unknown>, context: ToolContext, admitted: ConsumeResult): Promise<object>;
}

/** A query record (strings, as a URL's query holds) from a tool's arguments, absent ones left out. */
export function queryOf(args: Record<string, unknown>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, String(args[name])]));
}
