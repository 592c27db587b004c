import { afterAll, afterEach } from "vitest";
import { drainSubmittedBatches } from "./helpers";

afterEach(() => drainSubmittedBatches());

// A consumer writes its last log line just after the batch it completes becomes
// visible; let it land before the file's runtime is torn down.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 250)));
