// What the operator tools share: expected mistakes (a bad flag, a missing file,
// not logged in, an unknown id) end as one line saying what to do and a non-zero
// exit, never a stack trace. Anything else is a bug: one line too, and the stack
// only with DEBUG=1.

import { readFileSync } from "node:fs";

/** A mistake the operator can fix; the message says how. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A command-line mistake: exit code 2, with a pointer to --help. */
export const usageError = (message: string): CliError => new CliError(`${message} (see --help)`, 2);

/** A usage mistake, as an expression (`?? fail(…)`): runCli prints it with a pointer to --help. */
export function fail(message: string): never {
  throw usageError(message);
}

interface NodeError {
  code?: string;
  path?: string;
  message: string;
}

const FILE_PROBLEMS: Record<string, string> = {
  ENOENT: "no such file; check the path",
  EACCES: "permission denied; check the file's permissions",
  EPERM: "permission denied; check the file's permissions",
  EISDIR: "it is a directory; give a file",
};

/** An unreadable file as a CliError naming it (Node leaves the path out of some errors); other errors as they are. */
export function cannotRead(path: string, error: unknown): unknown {
  const problem = FILE_PROBLEMS[(error as NodeError).code ?? ""];
  return problem ? new CliError(`cannot read ${path}: ${problem}`) : error;
}

/** A file's bytes (decoding is the file core's job: encodings are guessed there, never silently). */
export function readFileBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
}

/** The one line for an error, and the exit code. */
export function describeFailure(error: unknown): { line: string; exitCode: number } {
  if (error instanceof CliError) return { line: error.message, exitCode: error.exitCode };
  const { code, path, message } = (error ?? {}) as NodeError;
  if (code?.startsWith("ERR_PARSE_ARGS_")) {
    const flag = /'(-[^']*)'/.exec(message)?.[1];
    const what =
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
        ? `unknown option ${flag}`
        : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
          ? `option ${flag} needs a value`
          : message.split(". ")[0];
    return describeFailure(usageError(what ?? message));
  }
  if (path && code && code in FILE_PROBLEMS)
    return { line: `cannot read ${path}: ${FILE_PROBLEMS[code]}`, exitCode: 1 };
  const text = error instanceof Error ? error.message : String(error);
  return { line: `unexpected error: ${text.split("\n")[0]} (run again with DEBUG=1 for details)`, exitCode: 1 };
}

/** Runs a tool's main: --help prints the usage; failures print one line on stderr and set the exit code. */
export async function runCli(
  usage: string,
  main: (argv: string[]) => unknown,
  argv = process.argv.slice(2),
): Promise<void> {
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    console.log(usage);
    return;
  }
  try {
    await main(argv);
  } catch (error) {
    const { line, exitCode } = describeFailure(error);
    console.error(`error: ${line}`);
    if (process.env.DEBUG && error instanceof Error && !(error instanceof CliError)) console.error(error.stack);
    process.exitCode = exitCode;
  }
}
