-- The dashboard's orders list and CSV export (and GET /orders, which shares the
-- query): keyset paging on (created_at, id) newest first needs both columns in
-- the index, else a deep page re-reads every row above it. The new index is
-- built before the old one goes, so listing is never without one.
CREATE INDEX "orders_partner_id_environment_created_at_id_index" ON "orders" USING btree ("partner_id","environment","created_at","id");--> statement-breakpoint
DROP INDEX "orders_partner_id_environment_created_at_index";--> statement-breakpoint
-- GET /transactions (and its export) pages by id alone.
CREATE INDEX "orders_partner_id_environment_id_index" ON "orders" USING btree ("partner_id","environment","id");--> statement-breakpoint
-- Domain search by substring (ILIKE '%term%'). fastupdate off as in 0007: a new
-- order must be findable at once, and a pending list would slow every search.
CREATE INDEX "orders_domain_trgm" ON "orders" USING gin ("domain" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
-- The events an order caused, for the order's page: data.order.public_id.
CREATE INDEX "events_order_public_id" ON "events" USING btree (("data" -> 'order' ->> 'public_id'));
