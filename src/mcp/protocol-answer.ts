// A tool's answer that is not a tool result: the 2026-07-28 revision's `input_required` (a question for
// the person, thrown from where the tool asks) or the tasks extension's `resultType: "task"` (returned).
// callTool hands it to the SDK as it is, where a result would be wrapped in content.

export class ProtocolAnswer extends Error {
  constructor(readonly result: { readonly resultType: "input_required" | "task" }) {
    super(result.resultType);
    this.name = "ProtocolAnswer";
  }
}
