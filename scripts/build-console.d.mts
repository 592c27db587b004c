import type { BuildOptions } from "esbuild";

export const CONSOLE_BUILD: BuildOptions & { entryPoints: string[]; outdir: string };
