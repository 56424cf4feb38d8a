import { signOutAction } from "@/server/auth/actions";
import { Button } from "@/components/ui/button";

/** A form, not a click handler, so signing out works before hydration too. */
export function SignOutButton() {
  return (
    <form action={signOutAction}>
      <Button type="submit" variant="secondary" size="sm">
        Sign out
      </Button>
    </form>
  );
}
