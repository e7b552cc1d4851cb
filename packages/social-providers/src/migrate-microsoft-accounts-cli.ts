import type { AuthContext } from "@latchkey/core";
import {
  migrateMicrosoftAccountIds,
  type MicrosoftMigrationReport,
} from "./migrate-microsoft-account-ids.js";

/** Where the command writes and how it loads the config module (injected by tests). */
export interface CliIO {
  print(line: string): void;
  error(line: string): void;
  /** Directory a relative `--config` is resolved against. */
  cwd: string;
  /** @default dynamic `import()` */
  load?: ((url: string) => Promise<Record<string, unknown>>) | undefined;
}

/** The command's help text. */
export const USAGE = `Usage: latchkey-migrate-microsoft-accounts --config <module> [options]

Re-keys Microsoft accounts from the 1.0 \`sub\` claim to \`oid\` (stored ID token, else Graph /me).
Nothing is written when two rows would share an account id.

  --config <module>    module exporting your Latchkey instance (createAuth(...)); a .ts config
                       needs a loader: node --import tsx $(which latchkey-migrate-microsoft-accounts) ...
  --export <name>      the export holding it (default: "auth", else the default export)
  --dry-run            report only, write nothing
  --provider-id <id>   default "microsoft"
  --graph <url>        Graph base URL (default https://graph.microsoft.com/v1.0)
  --help

Exit status: 0 done (or nothing to do), 1 conflicts (nothing written), 2 usage or config error.`;

interface Args {
  config?: string;
  exportName?: string;
  dryRun: boolean;
  providerId?: string;
  graph?: string;
  help: boolean;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { dryRun: false, help: false };
  const valued = {
    "--config": "config",
    "--export": "exportName",
    "--provider-id": "providerId",
    "--graph": "graph",
  } as const;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag = "", inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    if (flag === "--dry-run") args.dryRun = true;
    else if (flag === "--help" || flag === "-h") args.help = true;
    else if (flag in valued) {
      const value = inline ?? argv[++i];
      if (!value) return `${flag} needs a value.`;
      args[valued[flag as keyof typeof valued]] = value;
    } else return `Unknown argument ${JSON.stringify(arg)}.`;
  }
  return args;
}

const isAuth = (value: unknown): value is { $context: AuthContext | Promise<AuthContext> } =>
  typeof value === "object" && value !== null && "$context" in value;

/** The summary lines of a report: counts, row ids and reasons; never a token. */
export function formatReport(report: MicrosoftMigrationReport): string[] {
  const fromToken = report.changed.filter((c) => c.source === "id-token").length;
  const lines = [
    `Microsoft account ids, sub -> oid${report.dryRun ? " (dry run)" : ""}`,
    `  rows examined:     ${report.total}`,
    `  to change:         ${report.changed.length} (${fromToken} from the ID token, ${report.changed.length - fromToken} from Graph)`,
    `  already migrated:  ${report.unchanged.length}`,
    `  left as they are:  ${report.unresolved.length}`,
    ...report.unresolved.map((row) => `    account ${row.id}: ${row.reason}`),
    `  conflicts:         ${report.conflicts.length}`,
    ...report.conflicts.map(
      (c) => `    accountId ${c.accountId} would be shared by accounts ${c.rowIds.join(", ")}`,
    ),
  ];
  if (report.conflicts.length) lines.push("Nothing written: resolve the conflicts first (Upgrade order 1).");
  else if (report.dryRun) lines.push("Nothing written (dry run).");
  else
    lines.push(
      report.applied ? `Written: ${report.changed.length} account(s) updated.` : "Nothing to write.",
    );
  if (report.unresolved.length) {
    lines.push(
      'Rows left as they are keep their old id: deploy with accountIdClaim: "sub" until those users sign in again.',
    );
  }
  return lines;
}

/** The `latchkey-migrate-microsoft-accounts` command; resolves to its exit status. */
export async function runMigrateMicrosoftAccountsCli(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string" || args.help || !args.config) {
    if (typeof args === "string") io.error(args);
    (typeof args !== "string" && args.help ? io.print : io.error)(USAGE);
    return typeof args !== "string" && args.help ? 0 : 2;
  }
  const url = new URL(args.config, `file://${io.cwd.replace(/\/?$/, "/")}`).href;
  let auth: unknown;
  try {
    const module = await (io.load ?? ((href: string) => import(href) as Promise<Record<string, unknown>>))(
      url,
    );
    auth = args.exportName ? module[args.exportName] : (module.auth ?? module.default);
  } catch (error) {
    io.error(`Cannot load ${args.config}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  if (!isAuth(auth)) {
    io.error(
      `${args.config} exports no Latchkey instance${args.exportName ? ` named ${args.exportName}` : ""}.`,
    );
    return 2;
  }
  const report = await migrateMicrosoftAccountIds({
    auth,
    dryRun: args.dryRun,
    providerId: args.providerId,
    graphEndpoint: args.graph,
  });
  for (const line of formatReport(report)) io.print(line);
  return report.conflicts.length ? 1 : 0;
}
