CREATE TABLE "chore_runs" (
	"chore" text NOT NULL,
	"slot" text NOT NULL,
	"holder" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "chore_runs_chore_slot_pk" PRIMARY KEY("chore","slot")
);
--> statement-breakpoint
CREATE INDEX "chore_runs_started_at_index" ON "chore_runs" USING btree ("started_at");