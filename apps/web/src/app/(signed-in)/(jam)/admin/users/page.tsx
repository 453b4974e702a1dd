import type { Metadata } from "next";
import { AdminUsers } from "@/components/admin/admin-users";

export const metadata: Metadata = { title: "Users" };

export default function UsersPage() {
  return (
    <div className="stack">
      <h1 className="page-title">Users</h1>
      <AdminUsers />
    </div>
  );
}
