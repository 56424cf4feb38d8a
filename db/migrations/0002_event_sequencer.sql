ALTER TABLE "events" ALTER COLUMN "seq" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "seq" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "events_unsequenced" ON "events" USING btree ("created_at") WHERE "events"."seq" is null;--> statement-breakpoint
-- Wake the sequencer and delivery workers (LISTEN pdm_events) when events commit.
CREATE OR REPLACE FUNCTION notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pdm_events', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION notify_events();
