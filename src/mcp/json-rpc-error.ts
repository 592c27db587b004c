/** An HTTP answer the transport layer gives before any JSON-RPC request is read (no id to answer to). */
export const jsonRpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/** A session this server does not hold (evicted, closed, or another customer's): the client starts a new one. */
export const sessionNotFound = () => jsonRpcError(404, -32001, "Session not found");
