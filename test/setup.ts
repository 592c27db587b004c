import { afterEach } from "vitest";
import { drainSubmittedBatches, watchBatchLogs } from "./helpers";

watchBatchLogs();
afterEach(() => drainSubmittedBatches());
