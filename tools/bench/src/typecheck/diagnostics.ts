/** One `error TSnnnn` line of tsc's output. */
export interface TscError {
  /** The file as tsc printed it (relative to the project). */
  file: string;
  line: number;
  code: number;
  /** The first line of the message. */
  message: string;
}

/** What `tsc --extendedDiagnostics` reported for one program. */
export interface TscDiagnostics {
  files: number;
  types: number;
  instantiations: number;
  /** "Memory used", in kilobytes (tsc prints the heap used at the end, e.g. `190371K`). */
  memoryKB: number;
  checkSeconds: number;
  totalSeconds: number;
  /** Every statistic as printed, by name, for the JSON record. */
  raw: Record<string, string>;
  errors: TscError[];
}

const STAT = /^([A-Za-z][A-Za-z /-]*?):\s+(\S.*?)\s*$/;
// `app.ts(12,3): error TS2339: Property ...` (tsc without --pretty, as when piped).
const ERROR = /^(.+?)\((\d+),\d+\): error TS(\d+): (.*)$/;

/**
 * Parses tsc's `--extendedDiagnostics` output (and any errors printed before it). Throws when
 * the statistics the figure needs are missing, so a tsc that failed to start is not read as 0.
 */
export function parseExtendedDiagnostics(output: string): TscDiagnostics {
  const raw: Record<string, string> = {};
  const errors: TscError[] = [];
  for (const line of output.split(/\r?\n/)) {
    const error = ERROR.exec(line);
    if (error) {
      errors.push({
        file: error[1] ?? "",
        line: Number(error[2]),
        code: Number(error[3]),
        message: error[4] ?? "",
      });
      continue;
    }
    const stat = STAT.exec(line);
    if (stat?.[1] && stat[2] !== undefined) raw[stat[1]] = stat[2];
  }
  const number = (name: string, unit = ""): number => {
    const text = raw[name];
    if (text === undefined) throw new Error(`tsc printed no "${name}" statistic:\n${output.slice(-2000)}`);
    const value = Number(unit && text.endsWith(unit) ? text.slice(0, -unit.length) : text);
    if (!Number.isFinite(value)) throw new Error(`tsc's "${name}" is not a number: ${text}`);
    return value;
  };
  return {
    files: number("Files"),
    types: number("Types"),
    instantiations: number("Instantiations"),
    memoryKB: number("Memory used", "K"),
    checkSeconds: number("Check time", "s"),
    totalSeconds: number("Total time", "s"),
    raw,
    errors,
  };
}
