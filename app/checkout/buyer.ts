import { z } from "zod";
import { withoutNul } from "@/server/contracts/common";
import { countryCodes } from "./format";

// The hosted checkout form's buyer fields, checked by its server action before
// payCheckoutSession (a "use server" file may export only actions, so it lives here).

export const checkoutBuyerSchema = z.object({
  email: z.email("Enter a valid email address.").max(254),
  name: z.string().trim().min(1, "Enter the name on the order.").max(200).refine(withoutNul, "Enter the name without control characters."),
  country: z.string().refine((c) => countryCodes.has(c), "Choose your country."),
});
