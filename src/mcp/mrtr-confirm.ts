// Spending confirmed by a multi round-trip request (MCP 2026-07-28, basic/patterns/mrtr): the first call
// answers `input_required` with one elicitation/create and a requestState; the client asks its person and
// calls again with the answer and the state unchanged. The state is HMAC-signed under MCP_STATE_SECRET
// (the SDK's codec, which the server's verify hook runs before any handler: an altered, expired or other
// customer's state is refused there, -32602, and creates nothing). It binds the tool, a digest of its
// arguments, the confirmed maximum and the batch id chosen when asking: presented again, the same state
// makes the same batch, which exists already, so a confirmation makes one batch however often it is sent.
import { createRequestStateCodec, inputRequired, type ServerContext } from "@modelcontextprotocol/server";
import * as z from "zod";
import { newBatchId } from "../base/batch-id";
import { sha256Hex } from "../base/sha256";
import type { ApiKeyRecord } from "../keys/api-key";
import { CONFIRM_FORM, readConfirmation } from "./confirmation";
import { ProtocolAnswer } from "./protocol-answer";
import type { ToolContext } from "./tool";

/** How long a person has to answer: a state older than this is refused. */
const STATE_TTL_SECONDS = 600;

/** The inputRequests key of the one question. */
const CONFIRM_KEY = "confirm_spending";

const confirmStateSchema = z.object({
  tool: z.string(),
  args: z.string(),
  maxCredits: z.int().min(0),
  batchId: z.string(),
});
type ConfirmState = z.infer<typeof confirmStateSchema>;

/** The codec for one caller: its state is bound to the customer and environment (and the method) it was made for. */
export const stateCodec = (env: Env, apiKey: ApiKeyRecord) =>
  createRequestStateCodec<ConfirmState>({
    key: env.MCP_STATE_SECRET,
    ttlSeconds: STATE_TTL_SECONDS,
    bind: (ctx) => `${ctx.mcpReq.method}\0${apiKey.customerId}\0${apiKey.environment}`,
  });

/** A digest of a call's arguments: the state answers this call only, not one with other people or fields. */
const argsDigest = (args: Record<string, unknown>) => sha256Hex(JSON.stringify(args));

/**
 * ToolContext.confirm on the 2026-07-28 revision: null when the client declared no elicitation; the
 * person's answer when this call carries a state for exactly this question; otherwise the question, thrown.
 */
export function mrtrConfirm(
  ctx: ServerContext,
  call: { tool: string; args: Record<string, unknown>; apiKey: ApiKeyRecord; env: Env; canAsk: boolean },
): ToolContext["confirm"] {
  return async ({ message, maxCredits }) => {
    if (!call.canAsk) return null;
    const args = await argsDigest(call.args);
    const state = confirmStateSchema.safeParse(ctx.mcpReq.requestState()).data;
    const forThis = state?.tool === call.tool && state.args === args && state.maxCredits === maxCredits;
    if (state && forThis) {
      const answer = readConfirmation({ answered: ctx.mcpReq.inputResponses?.[CONFIRM_KEY] });
      if (answer !== "invalid") return { answer, batchId: state.batchId };
    }
    // First asked, a state for another question, or an answer that cannot be read: asked (again).
    const batchId = state && forThis ? state.batchId : newBatchId(call.apiKey.jurisdiction);
    const requestState = await stateCodec(call.env, call.apiKey).mint(
      { tool: call.tool, args, maxCredits, batchId },
      ctx,
    );
    const again = state && forThis ? "That answer could not be read; please answer again. " : "";
    const question = inputRequired.elicit({
      mode: "form",
      message: `${again}${message}`,
      requestedSchema: CONFIRM_FORM,
    });
    throw new ProtocolAnswer(inputRequired({ inputRequests: { [CONFIRM_KEY]: question }, requestState }));
  };
}
