// The bench as a library, for scripts that want the numbers rather than the table.
export { runBench, type GroupResults } from "./bench.js";
export type { Measurement } from "./load.js";
export { GROUPS, parseOptions, type BenchOptions, type GroupName } from "./options.js";
export {
  discoverPlugins,
  REFERENCE_PLUGINS,
  type DiscoveredPlugin,
  type PluginDiscovery,
} from "./plugins.js";
export { formatMarkdown, formatTable, type BenchReport, type GroupRun } from "./report.js";
export { measureScryptLimit, type ScryptLimit } from "./scrypt-limit.js";
export type { Table } from "./table.js";
export type { TypecheckResult, TypecheckRow, TypecheckRun } from "./groups/typecheck.js";
export { parseExtendedDiagnostics, type TscDiagnostics } from "./typecheck/diagnostics.js";
