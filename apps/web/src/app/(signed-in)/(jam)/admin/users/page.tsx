import type { Metadata } from "next";
import { AdminUsers } from "@/components/admin-users";

export const metadata: Metadata = { title: "Users · Solserver" };

export default function UsersPage() {
  return <AdminUsers />;
}
