import * as referenceAdmin from "better-auth/plugins/admin/access";
import { createAccessControl as referenceAccessControl, role as referenceRole } from "better-auth/plugins/access";
import * as referenceOrganization from "better-auth/plugins/organization/access";
import { describe, expect, it } from "vitest";
import * as admin from "@latchkey/access/admin";
import * as organization from "@latchkey/access/organization";
import { createAccessControl, role, type Connector, type Role } from "@latchkey/access";

type AnyRole = { authorize(request: Record<string, unknown>, connector?: Connector): unknown; statements: unknown };
type Request = Record<string, unknown>;

/** Every request shape worth asking: each action alone, each resource's whole list, pairs, unknowns, OR forms. */
function requestsFor(statements: Record<string, readonly string[]>): Request[] {
  const resources = Object.keys(statements);
  const requests: Request[] = [{}, { unknown: ["read"] }];
  for (const resource of resources) {
    const actions = statements[resource] ?? [];
    requests.push({ [resource]: [] }, { [resource]: [...actions] }, { [resource]: ["nope"] });
    for (const action of actions) requests.push({ [resource]: [action] });
    requests.push({ [resource]: { actions: [...actions, "nope"], connector: "OR" } });
    requests.push({ [resource]: { actions: [...actions], connector: "AND" } });
    requests.push({ [resource]: { connector: "OR" } });
    for (const other of resources)
      if (other !== resource) requests.push({ [resource]: [actions[0]], [other]: [...(statements[other] ?? [])] });
    requests.push({ [resource]: [actions[0]], unknown: ["read"] });
  }
  return requests;
}

function sameAnswers(ours: AnyRole, theirs: AnyRole, statements: Record<string, readonly string[]>): void {
  for (const request of requestsFor(statements))
    for (const connector of [undefined, "AND", "OR"] as const)
      expect(ours.authorize(request, connector), JSON.stringify({ request, connector })).toEqual(
        theirs.authorize(request, connector),
      );
}

describe("@latchkey/access beside better-auth/plugins/access", () => {
  it("the organization defaults: same statements, same roles, same answer to every request", () => {
    expect(organization.defaultStatements).toEqual(referenceOrganization.defaultStatements);
    expect(Object.keys(organization.defaultRoles)).toEqual(Object.keys(referenceOrganization.defaultRoles));
    for (const name of ["owner", "admin", "member"] as const) {
      const ours = organization.defaultRoles[name] as AnyRole;
      const theirs = referenceOrganization.defaultRoles[name] as AnyRole;
      expect(ours.statements).toEqual(theirs.statements);
      sameAnswers(ours, theirs, organization.defaultStatements);
    }
  });

  it("the admin defaults: same statements, same roles, same answer to every request", () => {
    expect(admin.defaultStatements).toEqual(referenceAdmin.defaultStatements);
    for (const name of ["admin", "user"] as const) {
      const ours = admin.defaultRoles[name] as AnyRole;
      const theirs = referenceAdmin.defaultRoles[name] as AnyRole;
      expect(ours.statements).toEqual(theirs.statements);
      sameAnswers(ours, theirs, admin.defaultStatements);
    }
  });

  it("a reference permission config ports unchanged: the same statements and roles answer alike", () => {
    const statements = {
      ...referenceOrganization.defaultStatements,
      project: ["create", "share", "update", "delete"],
    } as const;
    const granted = { project: ["create", "share"], member: ["create"], ac: ["read"] } as const;
    const ours = createAccessControl(statements).newRole(granted) as unknown as AnyRole;
    const theirs = referenceAccessControl(statements).newRole(granted) as unknown as AnyRole;
    sameAnswers(ours, theirs, statements);
    sameAnswers(role(granted) as unknown as AnyRole, referenceRole(granted) as unknown as AnyRole, statements);
  });

  it("a malformed resource entry throws on both sides", () => {
    const ours: Role = role({ project: ["create"] });
    expect(() => ours.authorize({ project: "create" } as never)).toThrow("Invalid access control request");
    expect(() => referenceRole({ project: ["create"] }).authorize({ project: "create" } as never)).toThrow(
      "Invalid access control request",
    );
  });

  it("row 64: an unknown connector — the reference passes when any one resource passes, Latchkey reads it as AND", () => {
    const granted = { project: ["create"], billing: ["read"] } as const;
    const request = { project: ["create"], billing: ["update"] };
    expect(referenceRole(granted).authorize(request as never, "XOR" as never)).toEqual({ success: true });
    expect(role(granted).authorize(request as never, "XOR" as never)).toEqual({
      success: false,
      error: 'unauthorized to access resource "billing"',
    });
  });
});
