#!/usr/bin/env node
// The `latchkey-migrate-microsoft-accounts` executable: see ../migrate-microsoft-accounts-cli.ts.
import { runMigrateMicrosoftAccountsCli } from "../migrate-microsoft-accounts-cli.js";

const host = globalThis.process;
host.exitCode = await runMigrateMicrosoftAccountsCli(host.argv.slice(2), {
  print: (line) => host.stdout.write(`${line}\n`),
  error: (line) => host.stderr.write(`${line}\n`),
  cwd: host.cwd(),
});
