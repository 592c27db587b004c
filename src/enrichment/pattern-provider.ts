import { firstAndLast } from "../contact-info/names";
import { directoryKey, type LearnedPattern, readDirectory } from "./directory";
import { applyPattern } from "./email-patterns";
import { lookupMx } from "./mx-lookup";
import { type ContactProvider, type FindResult, notFound } from "./provider";
import type { UpstreamCall } from "./upstream";

// An inferred address is `unverified` until the verifiers judge it; confidence
// tells a pattern learned from the directory from the most common one on the web.
const LEARNED_CONFIDENCE = 75;
const GUESSED_CONFIDENCE = 35;

/** Infers a work address from name + company domain, if the domain receives mail. */
export function patternProvider(
  directory: KVNamespace,
  resolverUrl: string,
  upstream: Omit<UpstreamCall, "provider">,
): ContactProvider {
  return {
    name: "pattern",
    async find({ person, fields }): Promise<FindResult> {
      const name = firstAndLast(person);
      const domain = person.companyDomain;
      if (!fields.includes("email") || !name || !domain) return notFound();
      const [mail, learned] = await Promise.all([
        lookupMx(domain, resolverUrl, upstream),
        readDirectory<LearnedPattern>(directory, directoryKey.pattern(domain)),
      ]);
      if (mail === "no_mail") return notFound();
      const address = `${applyPattern(learned?.pattern ?? "first.last", name.first, name.last)}@${domain}`;
      return {
        emails: [
          learned
            ? { address, type: "work", status: "unverified", confidence: LEARNED_CONFIDENCE, source: "pattern" }
            : { address, type: "work", status: "unverified", confidence: GUESSED_CONFIDENCE, source: "pattern" },
        ],
        phones: [],
      };
    },
  };
}
