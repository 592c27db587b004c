import { afterEach } from "vitest";
import { crmPageWords } from "../src/crm/page-words";
import { drainSubmittedBatches, watchBatchLogs } from "./batch-drain";

// The console's CRM words, which its build defines from the declarations (scripts/build-console.mjs), the same here.
Object.assign(globalThis, { CRM_PAGE_WORDS: crmPageWords() });

watchBatchLogs();
afterEach(() => drainSubmittedBatches());
