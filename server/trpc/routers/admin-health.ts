import { getAdminHealth } from "@/server/services/admin-health";
import { adminProcedure, createTRPCRouter } from "../init";

// admin.health.*: the operational figures of /admin/health.

export const adminHealthRouter = createTRPCRouter({
  /** admin.health.get - webhook queue and failures, worker leases, last settlement run, database size */
  get: adminProcedure.query(({ ctx }) => getAdminHealth(ctx.db)),
});
