DROP INDEX "settlements_partner_id_environment_period_start_currency_index";--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "sequence" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_statement_key" ON "settlements" USING btree ("partner_id","environment","period_start","currency","payment_model","sequence");