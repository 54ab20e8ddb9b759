-- What each driver was ranked on (issue 38, item 4; docs/dispatch.md "Ranking"): the distance plus
-- the handicap for leaving job cards unanswered, and the share of cards accepted that it came
-- from, so ops can read why a farther driver was asked first. Null for decisions made before.
alter table dispatch_decisions add column rank_m integer, add column answer_rate real;
