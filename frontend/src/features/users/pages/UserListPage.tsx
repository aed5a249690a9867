import { UsersList } from '../components/UsersList';

/** /user: the users of the current company. */
export default function UserListPage() {
  return <UsersList />;
}
