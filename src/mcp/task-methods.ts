// tasks/get, tasks/update and tasks/cancel of the tasks extension, over the batch a task is
// (batch-task.ts): get reads the batch, cancel cancels and erases it as DELETE does on REST. A task id
// that is not one of the caller's batches is an error that shows nothing: the same for a missing one.
import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import * as z from "zod";
import { deleteBatch, readBatchPage } from "../batch/read-operations";
import type { McpScope } from "../connections/connection";
import { ApiError } from "../http/problem";
import type { Caller } from "../operations/caller";
import { cancelledTask, detailedTask } from "./batch-task";
import type { McpPrincipal } from "./principal";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

const taskParams = z.object({ taskId: z.string().max(64) });

const noSuchTask = () => new ProtocolError(ProtocolErrorCode.InvalidParams, "No task with this id exists.");

/** The batch behind the task, as tasks/get shows it; a batch cancelled is a task cancelled. */
async function taskOf(caller: Caller, taskId: string) {
  try {
    return detailedTask(taskId, await readBatchPage(caller, taskId, { limit: "1" }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const deletedAt = error.init.code === "batch_deleted" ? error.init.extensions?.deletedAt : undefined;
    if (typeof deletedAt === "string") return cancelledTask(taskId, deletedAt);
    throw noSuchTask();
  }
}

export function taskHandlers(server: Server, caller: Caller, principal: McpPrincipal): void {
  const allowed = (scope: McpScope) => {
    if (!principal.scopes.has(scope))
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `Needs the ${scope} scope.`);
  };
  server.setRequestHandler("tasks/get", { params: taskParams }, async ({ taskId }) => {
    allowed("read");
    return taskOf(caller, taskId);
  });
  // No task of this server waits for input: an update is acknowledged once the task is known.
  server.setRequestHandler("tasks/update", { params: taskParams.passthrough() }, async ({ taskId }) => {
    allowed("read");
    await taskOf(caller, taskId);
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: taskParams }, async ({ taskId }) => {
    allowed("spend");
    await taskOf(caller, taskId);
    await deleteBatch(caller, taskId);
    return {};
  });
}
