/** One `organization` row (`metadata` is JSON text as stored). */
export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  logo?: string | null;
  metadata?: string | null;
  createdAt: Date;
  [field: string]: unknown;
}

/** One `member` row; `role` is a comma-separated list of role names. */
export interface MemberRow {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date;
  [field: string]: unknown;
}

/** One `invitation` row; `teamId` is a comma-separated list of team ids when teams are on. */
export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  teamId?: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: Date;
  createdAt: Date;
  inviterId: string;
  [field: string]: unknown;
}

/** One `team` row (`memberCount` is internal and never answered). */
export interface TeamRow {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt?: Date | null;
  [field: string]: unknown;
}

/** One `teamMember` row (`membershipKey` is internal and never answered). */
export interface TeamMemberRow {
  id: string;
  teamId: string;
  userId: string;
  createdAt?: Date | null;
  [field: string]: unknown;
}

/** One `organizationRole` row; `permission` is JSON text `{ resource: [actions] }`. */
export interface OrganizationRoleRow {
  id: string;
  organizationId: string;
  role: string;
  permission: string;
  createdAt: Date;
  updatedAt?: Date | null;
  [field: string]: unknown;
}
