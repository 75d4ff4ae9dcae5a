-- Published contents and manifest shards are kept out of line but no longer compressed.
--
-- A cold publish stores a manifest shard per app (some 3.6 KB each, over the 2 KB at which
-- PostgreSQL starts to TOAST a row) and PostgreSQL compressed every one of them: for a
-- 1,000-app site that was about 35 ms of the server's time in every run that wrote a new
-- manifest (45 ms compressed against 11 ms stored as they are, measured), more than the rest of
-- recording the run. Shards are mostly hexadecimal digests, which compress poorly anyway.
-- Contents are stored once per distinct digest whatever their storage; rows stored before
-- this migration stay as they are.

ALTER TABLE publish_blobs ALTER COLUMN content SET STORAGE EXTERNAL;
ALTER TABLE tenant_publish_blobs ALTER COLUMN content SET STORAGE EXTERNAL;
