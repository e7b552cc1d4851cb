/** Log levels, most verbose first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** `logger` option: a minimum level and a sink. */
export interface LoggerOptions {
  /** @default false */
  disabled?: boolean;
  /** @default "warn" */
  level?: LogLevel;
  /** Receives each line at or above `level`. @default console */
  log?: (level: LogLevel, message: string, ...args: unknown[]) => void;
}

/** The logger core and plugins write to. Never pass secrets, tokens or passwords. */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Builds a logger from the `logger` option. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const min = rank[options.level ?? "warn"];
  const sink =
    options.log ??
    ((level: LogLevel, message: string, ...args: unknown[]) => {
      const method = level === "debug" ? "debug" : level === "info" ? "info" : level;
      console[method](`[latchkey] ${message}`, ...args);
    });
  const at =
    (level: LogLevel) =>
    (message: string, ...args: unknown[]): void => {
      if (!options.disabled && rank[level] >= min) sink(level, message, ...args);
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
