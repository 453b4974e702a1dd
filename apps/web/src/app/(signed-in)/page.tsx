import { HomeRedirect } from "@/components/home-redirect";

// "/" is where sign-in lands: Jam editors go on to the review queue, everyone else to the chat.
export default function HomePage() {
  return <HomeRedirect />;
}
