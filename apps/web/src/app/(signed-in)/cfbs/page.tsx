import { CfbList } from "@/components/cfb-list";

export default function CfbsPage() {
  return <CfbList />;
}
