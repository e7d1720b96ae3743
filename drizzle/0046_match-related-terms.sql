CREATE TABLE "match_related_terms" (
	"lexeme" text NOT NULL,
	"related" text NOT NULL,
	CONSTRAINT "match_related_terms_lexeme_related_pk" PRIMARY KEY("lexeme","related")
);
--> statement-breakpoint
WITH "words" ("grp", "word") AS (VALUES
  (1, 'bike'), (1, 'bicycle'), (1, 'cycle'),
  (2, 'sofa'), (2, 'couch'), (2, 'settee'), (2, 'loveseat'),
  (3, 'tv'), (3, 'television'),
  (4, 'phone'), (4, 'smartphone'), (4, 'cellphone'),
  (5, 'stroller'), (5, 'pram'), (5, 'pushchair'), (5, 'buggy'),
  (6, 'crib'), (6, 'cot'),
  (7, 'wardrobe'), (7, 'closet'), (7, 'armoire'),
  (8, 'fridge'), (8, 'refrigerator'),
  (9, 'vacuum'), (9, 'hoover'),
  (10, 'trousers'), (10, 'pants'), (10, 'slacks'),
  (11, 'sweater'), (11, 'jumper'), (11, 'pullover'),
  (12, 'sneakers'), (12, 'trainers'),
  (13, 'jacket'), (13, 'coat'),
  (14, 'mower'), (14, 'lawnmower'),
  (15, 'lessons'), (15, 'tutoring'), (15, 'tuition'), (15, 'classes'),
  (16, 'speaker'), (16, 'loudspeaker'),
  (17, 'headphones'), (17, 'earphones'), (17, 'headset'), (17, 'earbuds'),
  (18, 'rug'), (18, 'carpet'),
  (19, 'barbecue'), (19, 'bbq'), (19, 'grill'),
  (20, 'puzzle'), (20, 'jigsaw'),
  (21, 'babysitting'), (21, 'childcare'), (21, 'babysitter'), (21, 'nanny'),
  (22, 'moving'), (22, 'removals'), (22, 'movers'),
  (23, 'cleaning'), (23, 'cleaner'), (23, 'housekeeping'),
  (24, 'kids'), (24, 'child'), (24, 'children'),
  (25, 'tyre'), (25, 'tire'),
  (26, 'espresso'), (26, 'coffee'),
  (27, 'spanner'), (27, 'wrench'),
  (28, 'flashlight'), (28, 'torch'),
  (29, 'duvet'), (29, 'comforter'), (29, 'quilt'),
  (30, 'cupboard'), (30, 'cabinet'),
  (31, 'bookcase'), (31, 'bookshelf'), (31, 'shelves'),
  (32, 'laptop'), (32, 'notebook'),
  (33, 'tutor'), (33, 'teacher'), (33, 'instructor')
), "lexemes" ("grp", "lexeme") AS (
  SELECT w."grp", l.lexeme FROM "words" w, unnest(tsvector_to_array(to_tsvector('english', w."word"))) AS l(lexeme)
)
INSERT INTO "match_related_terms" ("lexeme", "related")
SELECT DISTINCT a."lexeme", b."lexeme" FROM "lexemes" a JOIN "lexemes" b ON a."grp" = b."grp" AND a."lexeme" <> b."lexeme";--> statement-breakpoint
-- Every kept graph built again by the score of ADR 085 (the match-graph job drains these at start).
INSERT INTO "match_graph_changes" ("kind", "member_id")
SELECT 'build', "member_id" FROM "match_graph_members" WHERE "built_at" IS NOT NULL;
