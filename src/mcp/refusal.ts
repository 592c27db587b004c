// What a tool answers when it did nothing: an error of its own (the REST API has no such
// case, a person is never asked there), shaped as the problems are: {code, title, detail}.
import type { Estimate } from "../credits/estimate";

export class ToolRefusal extends Error {
  constructor(
    readonly code: "confirmation_required" | "confirmation_declined" | "invalid_confirmation" | "insufficient_scope",
    readonly title: string,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = "ToolRefusal";
  }
}

export const confirmationRequired = (estimate: Estimate) =>
  new ToolRefusal(
    "confirmation_required",
    "Confirmation required",
    `This spends up to ${estimate.maxCredits} credits and this client cannot ask its user (no MCP elicitation). Nothing was created. Ask your user whether to spend at most ${estimate.maxCredits} credits, then call again with maxCredits set to what they allow.`,
    { maxCredits: estimate.maxCredits, itemCount: estimate.itemCount },
  );

/** An agent's own maxCredits over its allowance, from a client that cannot ask its person. */
export const allowanceExceeded = (maxCredits: number, allowanceCredits: number) =>
  new ToolRefusal(
    "confirmation_required",
    "Confirmation required",
    `maxCredits ${maxCredits} is more than the ${allowanceCredits} credits this key or connection may commit without asking its user, and this client cannot ask (no MCP elicitation). Nothing was created. Ask your user whether to spend at most ${maxCredits} credits and call again from a client that can ask, or pass maxCredits of at most ${allowanceCredits}; the operator raises a key's allowance with \`npm run keys -- set-mcp-allowance KEY_ID --credits N\`, a person a connection's on its consent page.`,
    { maxCredits, allowanceCredits },
  );

export const insufficientScope = (scope: string) =>
  new ToolRefusal(
    "insufficient_scope",
    "Not allowed",
    `This tool needs the ${scope} scope, which this connection was not granted. Nothing was done; connect again and allow ${scope}.`,
    { scope },
  );

export const confirmationDeclined = (action: string) =>
  new ToolRefusal(
    "confirmation_declined",
    "Not confirmed",
    `The user did not confirm the spending (${action}). Nothing was created and nothing was charged.`,
  );

export const invalidConfirmation = () =>
  new ToolRefusal(
    "invalid_confirmation",
    "Confirmation not understood",
    'The client answered the confirmation twice in a shape other than the one asked for ({"action": "accept", "content": {"confirm": true}}, or the action "decline" or "cancel"). Nothing was created and nothing was charged.',
  );
