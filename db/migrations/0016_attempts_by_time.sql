-- The admin health screen counts the last 24 hours of delivery attempts per
-- endpoint; without this it scans every attempt kept (30 days).
CREATE INDEX "webhook_attempts_attempted_at_index" ON "webhook_attempts" USING btree ("attempted_at");
