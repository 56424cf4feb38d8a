CREATE TABLE "search_vocabulary" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"word" text NOT NULL,
	"model" text NOT NULL,
	"vector" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_vocabulary_word_unique" UNIQUE("word")
);
