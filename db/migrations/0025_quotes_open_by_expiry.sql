-- The open-quote count of POST /quotes (partner, environment, unexpired, unused; the
-- first 1,000 by expiry) read every quote the partner ever held that pruning had not yet
-- deleted, through (partner_id, environment), and sorted them. With expires_at in the
-- index it reads only the unexpired ones, in order, and stops at 1,000.
DROP INDEX "quotes_partner_id_environment_index";--> statement-breakpoint
CREATE INDEX "quotes_partner_id_environment_expires_at_index" ON "quotes" USING btree ("partner_id","environment","expires_at");
