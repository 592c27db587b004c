import { afterEach } from "vitest";
import { drainSubmittedBatches, watchBatchLogs } from "./batch-drain";

watchBatchLogs();
afterEach(() => drainSubmittedBatches());
