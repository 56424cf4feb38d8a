-- Each listed label embedded as one phrase (server/search/phrases.ts): the meaning
-- leg searches a query's subject against whole names by nearest neighbour.
CREATE TABLE "search_phrases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"model" text NOT NULL,
	"vector" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_phrases_label_unique" UNIQUE("label")
);
