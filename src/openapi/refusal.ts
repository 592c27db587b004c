// The examples' refusals: an ApiError raised by running the Worker's own parser on a bad input, so no
// error text is restated in the document (problems.ts, document.ts).
import { ApiError } from "../http/problem";

/** What `refuse` throws: the ApiError the Worker's own code raises for a bad input. */
export function refusal(refuse: () => unknown): ApiError {
  try {
    refuse();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("OpenAPI: an example refusal did not refuse");
}
