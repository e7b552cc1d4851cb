// The bench as a library, for scripts that want the numbers rather than the table.
export { runBench } from "./bench.js";
export { FIGURES, type FigureName } from "./figures.js";
export type { Measurement } from "./load.js";
export { parseOptions, type BenchOptions } from "./options.js";
export { formatMarkdown, formatTable, type BenchReport, type FigureResult } from "./report.js";
export { measureScryptLimit, type ScryptLimit } from "./scrypt-limit.js";
