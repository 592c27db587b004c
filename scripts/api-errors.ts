// What the tools that call the API (npm run enrich, npm run crm) say about an error the API answered, or a
// server that could not be reached: one line with what to do.
import { type Environment, ProblemError } from "../client/src/index";
import { DEFAULT_BASE_URL } from "./base-url";

/** One line saying what to do about an error the API answered or a server that could not be reached; undefined for anything else. */
export function explain(
  error: unknown,
  { baseUrl, environment }: { baseUrl: string; environment: Environment },
): string | undefined {
  if (error instanceof ProblemError) {
    const { problem } = error;
    if (problem.status === 401)
      return `the API key was refused (${problem.code}); pass a valid ${environment} key with --api-key or CONTACT_INFO_API_KEY`;
    if (problem.code === "environment_mismatch")
      return `the API key is not a ${environment} key; pass --environment ${environment === "test" ? "live" : "test"} or a ${environment} key`;
    if (problem.status === 404)
      return `${baseUrl} answered 404 (${problem.code}); give the API's root as --base-url, such as ${DEFAULT_BASE_URL}`;
    if (problem.code === "unexpected_response")
      return `${baseUrl} answered ${problem.status} ${problem.title}, not as the contact-info API does; check --base-url or CONTACT_INFO_BASE_URL`;
    return `the API answered ${problem.status} ${problem.code}: ${problem.detail}`;
  }
  if (error instanceof TypeError && error.message === "fetch failed") {
    const cause = error.cause as { code?: string; message?: string } | undefined;
    return `cannot reach ${baseUrl} (${cause?.code ?? cause?.message ?? "network error"}); start it with \`npm run dev\` or check --base-url or CONTACT_INFO_BASE_URL`;
  }
  return undefined;
}
