/** The own profile: PATCH /api/users/me/ and POST /api/users/me/change-password/. */
import { patch, post } from '@/api/http';
import type { UserInfo } from '@/api/types';

export interface ProfileInput {
  first_name: string;
  last_name: string;
  name: string;
  profile_name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  country: string;
  post_code: string;
  language: string;
}

export const updateProfile = (input: Partial<ProfileInput>) => patch<UserInfo>('/api/users/me/', input);

/** Ends every session of the user; answers a new token pair for this device. */
export const changePassword = (oldPassword: string, newPassword: string) =>
  post<{ access: string; refresh: string }>('/api/users/me/change-password/', { old_password: oldPassword, new_password: newPassword });
