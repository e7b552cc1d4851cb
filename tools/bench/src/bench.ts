import { randomBytes } from "node:crypto";
import { buildServers } from "./build.js";
import type { ServerName } from "./child-server.js";
import { bundleTable, runBundle, type BundleResult } from "./groups/bundle.js";
import { coldStartTable, runColdStart, type ColdStartResult } from "./groups/cold-start.js";
import { getSessionTable, runGetSession, type GetSessionResult } from "./groups/get-session.js";
import { credentialsTable, runCredentials, type CredentialsResult } from "./groups/credentials.js";
import { oauthProviderTable, runOAuthProvider, type OAuthProviderResult } from "./groups/oauth-provider.js";
import { organizationTable, runOrganization, type OrganizationResult } from "./groups/organization.js";
import { memoryTable, runMemory, type MemoryResult } from "./groups/memory.js";
import { pluginsTable, runPlugins, type PluginsResult } from "./groups/plugins.js";
import { runSign, signTables, type SignResult } from "./groups/sign.js";
import { runTypecheck, typecheckTable, type TypecheckResult } from "./groups/typecheck.js";
import { cpuSnapshot, describeMachine, otherCpuShare } from "./machine.js";
import type { BenchOptions, GroupName } from "./options.js";
import { discoverPlugins } from "./plugins.js";
import type { BenchReport, GroupRun } from "./report.js";
import type { RunContext } from "./run-context.js";
import { openStores, type Stores } from "./stores.js";
import { startPwnedRangeStub } from "./pwned-range.js";
import type { Table } from "./table.js";

/** Every group's numbers, keyed by group. */
export interface GroupResults {
  bundle: BundleResult;
  typecheck: TypecheckResult;
  "cold-start": ColdStartResult;
  "get-session": GetSessionResult;
  sign: SignResult;
  plugins: PluginsResult;
  memory: MemoryResult;
  organization: OrganizationResult;
  credentials: CredentialsResult;
  "oauth-provider": OAuthProviderResult;
}

/** Runs the selected groups one after the other and returns the report; a failed group is recorded, not fatal. */
export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchReport> {
  const startedAt = cpuSnapshot();
  const machine = describeMachine();
  log(
    `1-minute load average at start: ${machine.loadAverageAtStart.toFixed(2)} (the figures assume an otherwise idle machine)`,
  );
  const discovery = await discoverPlugins();
  log(`plugin packages: ${discovery.plugins.map((p) => p.packageName).join(", ") || "none"}`);

  // Bundle sizes and type-checking need no running server.
  const needsServers = options.groups.some((group) => group !== "bundle" && group !== "typecheck");
  const entries = needsServers ? await buildServers(discovery) : ({} as Record<ServerName, string>);
  const stores: Stores | null = needsServers ? await openStores() : null;
  // Sign-ups on servers with have-i-been-pwned ask a local range API, not the network.
  const pwnedRange = needsServers ? await startPwnedRangeStub() : null;
  if (stores?.unavailable.postgres) log(stores.unavailable.postgres);
  if (stores?.unavailable.redis) log(stores.unavailable.redis);
  const ctx: RunContext = {
    options,
    secret: randomBytes(32).toString("base64url"),
    entries,
    discovery,
    stores: stores as Stores,
    pwnedRangeURL: pwnedRange?.url ?? null,
    log,
  };

  const results: Partial<GroupResults> = {};
  const runs: GroupRun[] = [];
  const tables: Table[] = [];
  try {
    for (const group of options.groups) {
      const before = cpuSnapshot();
      log(`-- ${group}`);
      let error: string | null = null;
      try {
        tables.push(...(await runGroup(group, ctx, results)));
      } catch (cause) {
        error = (cause as Error).stack ?? String(cause);
        log(`${group} failed: ${error}`);
      }
      const after = cpuSnapshot();
      runs.push({
        group,
        seconds: (after.at - before.at) / 1000,
        otherCpuShare: otherCpuShare(before, after),
        error,
      });
    }
  } finally {
    await pwnedRange?.close();
    await stores?.cleanup();
  }
  const finishedAt = cpuSnapshot();
  return {
    date: new Date().toISOString(),
    machine,
    options,
    plugins: discovery,
    runs,
    otherCpuShare: otherCpuShare(startedAt, finishedAt),
    results,
    tables,
  };
}

async function runGroup(group: GroupName, ctx: RunContext, results: Partial<GroupResults>): Promise<Table[]> {
  switch (group) {
    case "bundle":
      return [bundleTable((results.bundle = await runBundle(ctx)))];
    case "typecheck":
      return [typecheckTable((results.typecheck = await runTypecheck(ctx)))];
    case "cold-start":
      return [coldStartTable((results["cold-start"] = await runColdStart(ctx)))];
    case "get-session":
      return [getSessionTable((results["get-session"] = await runGetSession(ctx)))];
    case "sign":
      return signTables((results.sign = await runSign(ctx)));
    case "plugins":
      return [pluginsTable((results.plugins = await runPlugins(ctx)))];
    case "memory":
      return [memoryTable((results.memory = await runMemory(ctx)))];
    case "organization":
      return [organizationTable((results.organization = await runOrganization(ctx)))];
    case "credentials":
      return [credentialsTable((results.credentials = await runCredentials(ctx)))];
    case "oauth-provider":
      return [oauthProviderTable((results["oauth-provider"] = await runOAuthProvider(ctx)))];
  }
}
