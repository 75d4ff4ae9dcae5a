-- Runs found by the manifest they left.
--
-- A `publish --full` run reads the folder's manifest, computes its digest itself, and asks
-- whether a run the history keeps left exactly that manifest: if one did, the history keeps
-- every content it lists (pruning keeps what kept runs need), and the run stores only the
-- contents that differ from it instead of offering all of them again (36,000 digests for a
-- 1,000-app site, checked one by one by the server). Without an index that question reads
-- every run ever recorded.

CREATE INDEX publish_runs_manifest_idx ON publish_runs (manifest_digest) WHERE manifest_digest IS NOT NULL;
