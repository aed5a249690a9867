/** Payloads of the users admin (/api/users/, departments, roles; backend apps/users/api), from the generated
 * schema. */
import type { components } from '@/api/schema';

type S = components['schemas'];

export type NamedRef = S['RoleBrief'];
export type VendorRef = S['UserParentVendor'];
export type UserRow = S['UserAdminList'];
export type UserDetail = S['UserAdmin'];
export type UserAccountInput = S['UserAdminRequest'];
export type UserCreateInput = S['UserCreateRequest'];
export type Membership = S['Membership'];
export type Memberships = S['MembershipsResponse'];
export type MembershipInput = S['MembershipWriteRequest'];
export type Department = S['Department'];
export type Role = S['Role'];
export type MatrixAction = keyof S['MatrixModelPermissions'];
export type MatrixModel = S['MatrixModel'];
export type MatrixArea = S['MatrixArea'];
