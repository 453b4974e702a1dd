import type { Metadata } from "next";
import { AdminUsers } from "@/components/admin-users";
import { RequireSession } from "@/components/require-session";

export const metadata: Metadata = { title: "Users · Solserver" };

export default function UsersPage() {
  return (
    <RequireSession jamOnly what="Managing users">
      <AdminUsers />
    </RequireSession>
  );
}
