-- Search's label leg looks up the labels one edit from a short label typed
-- ("themeidc" -> themedic), which trigram similarity misses below its bar.
CREATE INDEX "domains_environment_label_index" ON "domains" USING btree ("environment","label");
