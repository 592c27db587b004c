// How a person's answer to a spending confirmation (MCP elicitation) is read. An answer of another
// shape than the one asked for (`confirm: "true"`, `action: "yes"`, an error reply) is the client's
// mistake: asked again once, then the tool refuses with invalid_confirmation; never our failure.
import * as z from "zod";

export type Confirmation = "accept" | "decline" | "cancel" | "invalid";

/** What asking gave: the client's answer as sent, or no answer (timed out, or an error reply). */
export type AskOutcome = { answered: unknown } | { failed: "timeout" | "error" };

/** The form the person fills in: one box. */
export const CONFIRM_FORM = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, title: "Spend these credits", default: false } },
  required: ["confirm"],
};

const answerSchema = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.unknown()).optional(),
});

/** An answer read: accepted only with `confirm: true`; a timeout is a person who did not answer (cancel). */
export function readConfirmation(outcome: AskOutcome): Confirmation {
  if ("failed" in outcome) return outcome.failed === "timeout" ? "cancel" : "invalid";
  const parsed = answerSchema.safeParse(outcome.answered);
  if (!parsed.success) return "invalid";
  const { action, content } = parsed.data;
  if (action !== "accept") return action;
  if (content?.confirm === true) return "accept";
  return content?.confirm === false ? "decline" : "invalid";
}

/** Asks, and asks once more if the answer cannot be read (`again`: the second time). */
export async function askToConfirm(ask: (again: boolean) => Promise<AskOutcome>): Promise<Confirmation> {
  const first = readConfirmation(await ask(false));
  return first === "invalid" ? readConfirmation(await ask(true)) : first;
}
