import { describe, expect, it } from "vitest";
import { growthSteps, type TypecheckRow, type TypecheckRun } from "../src/groups/typecheck.js";
import { perPlugin, typecheckTable } from "../src/groups/typecheck-table.js";
import { parseOptions } from "../src/options.js";
import { summaryTable } from "../src/summary.js";
import { atMost } from "../src/targets.js";
import { appFiles, endpointCall, PROBES, type AppPlugin } from "../src/typecheck/app-source.js";
import { parseExtendedDiagnostics } from "../src/typecheck/diagnostics.js";

// What tsc 5.9.3 prints for `-p app --extendedDiagnostics --noEmit --pretty false` with one error.
const OUTPUT = `app.ts(22,18): error TS2339: Property 'signInWithOAuth2' does not exist on type 'InferAPI<...>'.
probe.ts(3,14): error TS2322: Type '"no"' is not assignable to type '"yes"'.
Files:                         798
Lines of Library:            51739
Lines of Definitions:       121001
Identifiers:                173381
Symbols:                    139229
Types:                       13791
Instantiations:             201611
Memory used:               281418K
Assignability cache size:     5525
I/O Read time:               0.03s
Parse time:                  0.55s
ResolveModule time:          0.10s
Program time:                0.77s
Bind time:                   0.28s
Check time:                  3.54s
printTime time:              0.00s
Emit time:                   0.00s
Total time:                  4.59s
`;

describe("parseExtendedDiagnostics", () => {
  it("reads instantiations, check time, memory and the other statistics", () => {
    const parsed = parseExtendedDiagnostics(OUTPUT);
    expect(parsed).toMatchObject({
      files: 798,
      types: 13791,
      instantiations: 201611,
      memoryKB: 281418,
      checkSeconds: 3.54,
      totalSeconds: 4.59,
    });
    expect(parsed.raw["Lines of Definitions"]).toBe("121001");
    expect(parsed.raw["ResolveModule time"]).toBe("0.10s");
  });

  it("collects type errors with file, line and code", () => {
    expect(parseExtendedDiagnostics(OUTPUT).errors).toEqual([
      {
        file: "app.ts",
        line: 22,
        code: 2339,
        message: "Property 'signInWithOAuth2' does not exist on type 'InferAPI<...>'.",
      },
      { file: "probe.ts", line: 3, code: 2322, message: `Type '"no"' is not assignable to type '"yes"'.` },
    ]);
  });

  it("refuses output without the statistics (tsc did not run the check)", () => {
    expect(() => parseExtendedDiagnostics("error TS5058: The specified path does not exist: 'x'.\n")).toThrow(
      /no "Files" statistic/,
    );
    expect(() => parseExtendedDiagnostics(OUTPUT.replace("201611", "many"))).toThrow(/not a number/);
  });
});

describe("appFiles", () => {
  const plugins: AppPlugin[] = [
    { id: "bearer", factory: "bearer", from: "@latchkey/bearer", options: "" },
    { id: "one-tap", factory: "oneTap", from: "@latchkey/one-tap", options: '{ clientId: "x" }' },
  ];

  it("writes the Latchkey app with plugins, getSession through the $Infer fallback, and a plugin endpoint", () => {
    const files = appFiles({
      implementation: "latchkey",
      plugins,
      socialProviders: { ids: ["github"], from: "@latchkey/social-providers" },
      latchkeySource: false,
    });
    const app = files["app.ts"] ?? "";
    expect(app).toContain('import { bearer } from "@latchkey/bearer";');
    expect(app).toContain('import { github } from "@latchkey/social-providers";');
    expect(app).toContain('plugins: [bearer(), oneTap({ clientId: "x" })],');
    expect(app).toContain('github: github({ clientId: "client-id", clientSecret: "client-secret" }),');
    expect(app).toContain("typeof auth extends { $Infer: { Session: infer S } } ? S :");
    expect(app).toContain("return session?.user.email;");
    expect(app).toContain('await auth.api.oneTapCallback({ body: { idToken: "id-token" }, headers });');
    expect(JSON.parse(files["tsconfig.json"] ?? "").compilerOptions.customConditions).toBeUndefined();
    // The probes sit on the lines PROBES names.
    const probe = (files["probe.ts"] ?? "").split("\n");
    expect(probe[PROBES.apiTyped - 1]).toContain("apiTyped");
    expect(probe[PROBES.inferSession - 1]).toContain("inferSession");
  });

  it("writes the reference app with betterAuth and typeof auth.$Infer.Session", () => {
    const app =
      appFiles({
        implementation: "reference",
        plugins: plugins.map((p) => ({ ...p, from: "better-auth/plugins" })),
        socialProviders: { ids: ["github"], from: "" },
        latchkeySource: true,
      })["app.ts"] ?? "";
    expect(app).toContain('import { bearer, oneTap } from "better-auth/plugins";');
    expect(app).toContain("export type Session = typeof auth.$Infer.Session;");
    expect(app).toContain('github: { clientId: "client-id", clientSecret: "client-secret" },');
  });

  it("adds the source condition for Latchkey only when dist is not used", () => {
    const files = appFiles({
      implementation: "latchkey",
      plugins: [],
      socialProviders: null,
      latchkeySource: true,
    });
    expect(JSON.parse(files["tsconfig.json"] ?? "").compilerOptions.customConditions).toEqual([
      "@latchkey/source",
    ]);
    expect(files["app.ts"]).not.toContain("auth.api.oneTapCallback");
    expect(endpointCall(plugins)?.id).toBe("one-tap");
  });
});

describe("growth", () => {
  it("steps through every count up to 8 plugins, then 0, half, all", () => {
    expect(growthSteps(0)).toEqual([0]);
    expect(growthSteps(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(growthSteps(13)).toEqual([0, 7, 13]);
  });

  const run = (instantiations: number): TypecheckRun => ({
    files: 1,
    types: 1,
    instantiations,
    memoryKB: 2048,
    checkSeconds: 0.5,
    totalSeconds: 1,
    errors: [],
    probes: { apiTyped: true, inferSession: true },
    endpoint: null,
  });
  const row = (
    series: TypecheckRow["series"],
    plugins: number,
    l: number | null,
    r: number,
  ): TypecheckRow => ({
    series,
    label: `${plugins}`,
    plugins,
    added: [],
    latchkey: l === null ? null : run(l),
    reference: run(r),
    ratio: l === null ? Number.NaN : l / r,
    target: null,
  });
  const rows = [
    row("growth", 0, 100, 40_000),
    row("growth", 2, 140, 44_000),
    row("every package", 2, 150, 44_500),
    row("reference only", 10, null, 172_000),
  ];

  it("gives instantiations per added plugin since the row above on each side", () => {
    expect(perPlugin(rows, "latchkey")).toEqual(["", "20", "", ""]);
    expect(perPlugin(rows, "reference")).toEqual(["", "2,000", "", "16,000"]);
  });

  it("prints both sides, the ratio and the per-plugin growth", () => {
    const table = typecheckTable({
      latchkeyTypes: { from: "source", reason: "dist unusable" },
      floor: run(3),
      rows,
      unmapped: [],
    });
    expect(table.rows[1]).toEqual([
      "2",
      "140",
      "20",
      "0.50",
      "2",
      "44,000",
      "2,000",
      "0.50",
      "2",
      "0.003x",
      "",
    ]);
    expect(table.rows[3]?.[1]).toBe("—");
    expect(table.notes.join("\n")).toContain('SOURCE via customConditions ["@latchkey/source"]');
  });
});

describe("summary", () => {
  it("judges the every-package row against half the reference's instantiations", () => {
    const run = (instantiations: number) =>
      ({
        instantiations,
        errors: [],
        probes: { apiTyped: true, inferSession: true },
      }) as unknown as TypecheckRun;
    const summary = summaryTable({
      typecheck: {
        latchkeyTypes: { from: "dist", reason: "built" },
        floor: run(3),
        unmapped: [],
        rows: [
          {
            series: "every package",
            label: "every plugin package: 5",
            plugins: 5,
            added: [],
            latchkey: run(20_000),
            reference: run(50_000),
            ratio: 0.4,
            target: atMost(0.4, 0.5, "≤ 1/2"),
          },
        ],
      },
    });
    expect(summary?.rows).toEqual([
      ["type-check an app with every plugin ≤ 1/2 of the reference's instantiations", "0.40x", "met"],
    ]);
  });
});

describe("options", () => {
  it("selects the typecheck group by name, alias or --only, and where its types come from", () => {
    expect(parseOptions(["typecheck"]).groups).toEqual(["typecheck"]);
    expect(parseOptions(["--", "types", "--types=source"])).toMatchObject({
      groups: ["typecheck"],
      typesFrom: "source",
    });
    expect(parseOptions(["--only=bundle,typecheck"]).groups).toEqual(["bundle", "typecheck"]);
    expect(parseOptions([]).typesFrom).toBe("auto");
    expect(() => parseOptions(["--types=maybe"])).toThrow(/--types needs/);
    expect(() => parseOptions(["nonsense"])).toThrow(/unknown group "nonsense"/);
  });
});
