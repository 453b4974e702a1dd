import { CfbList } from "@/components/cfb-list";
import { RequireSession } from "@/components/require-session";

export default function CfbsPage() {
  return (
    <RequireSession>
      <CfbList />
    </RequireSession>
  );
}
