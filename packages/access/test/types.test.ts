import { describe, expect, expectTypeOf, it } from "vitest";
import { createAccessControl, type AuthorizeResponse } from "../src/index.ts";
import { defaultAc } from "../src/organization.ts";

// Type tests: `tsc` (the typecheck step) checks them; at run time they only build roles.
describe("types", () => {
  const ac = createAccessControl({ project: ["create", "share"] } as const);

  it("newRole refuses undeclared resources and actions; requests are checked against the statements", () => {
    const viewer = ac.newRole({ project: ["share"] });
    expectTypeOf(viewer.statements.project).toEqualTypeOf<readonly ["share"]>();
    expectTypeOf(viewer.authorize).returns.toEqualTypeOf<AuthorizeResponse>();
    // @ts-expect-error: "delete" is no action of project
    ac.newRole({ project: ["delete"] });
    // @ts-expect-error: billing is no resource of this access control
    ac.newRole({ billing: ["read"] });
    // @ts-expect-error: requests are typed by the access control's statements
    viewer.authorize({ project: ["delete"] });
    expect(viewer.authorize({ project: ["create"] }).success).toBe(false);
  });

  it("the organization defaults type their statements", () => {
    const custom = defaultAc.newRole({ member: ["create"], ac: ["read"] });
    expect(custom.authorize({ member: ["create"] }).success).toBe(true);
  });
});
