import { UsersList } from '../components/UsersList';

/** /user/create (user menu "Create User"): the users list with the create drawer open. */
export default function UserCreatePage() {
  return <UsersList initialCreate />;
}
