import type { EmailVerifier, Verdict } from "./verifier";

/** Company domains whose found emails the sandbox verifier judges so; see README. Others are valid. */
const SANDBOX_VERDICTS: Record<string, Verdict> = {
  "catchall.test": { result: "catch_all", role: false },
  "invalid.test": { result: "invalid", role: false },
  "unknown.test": { result: "unknown", role: false },
};

/** The `test` environment's verifier: the verdict follows the item's company domain, never the address. */
export const sandboxVerifier: EmailVerifier = {
  name: "sandbox",
  verify: async (_address, person) => SANDBOX_VERDICTS[person.companyDomain ?? ""] ?? { result: "valid", role: false },
};
