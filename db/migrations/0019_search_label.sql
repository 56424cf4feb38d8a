-- Search's label leg looks up the labels one edit from a short label typed
-- ("themeidc" -> themedic), which trigram similarity misses below its bar.
CREATE INDEX IF NOT EXISTS "domains_environment_label_index" ON "domains" USING btree ("environment","label");
