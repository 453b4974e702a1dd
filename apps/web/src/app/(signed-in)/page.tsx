import { HomeRedirect } from "@/components/session/home-redirect";

// "/" is where sign-in lands: Jam editors go on to the review queue, everyone else to the chat.
export default function HomePage() {
  return <HomeRedirect />;
}
