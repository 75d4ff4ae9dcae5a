-- Four-eyes approval (0031, ApprovalRepository): each campaign's content version with the
-- login that made it, and who approved which version. The database says who is asking
-- (session_user) and refuses an approval by the last editor; these statements only read and ask.

-- name: campaign-version
-- One campaign's current version and its newest approval (NULL when none yet).
SELECT c.id AS campaign_id, c.status::text AS status, v.version, v.edited_by, v.edited_at,
       p.version AS approved_version, p.approved_by, p.approved_at, p.snapshot AS approved_snapshot
FROM campaigns c
JOIN apps a ON a.id = c.app_id
JOIN campaign_versions v ON v.campaign_id = c.id
LEFT JOIN LATERAL (
    SELECT version, approved_by, approved_at, snapshot FROM campaign_approvals
    WHERE campaign_id = c.id ORDER BY version DESC, id DESC LIMIT 1
) p ON true
WHERE a.slug = :app AND c.key = :key;

-- name: approve-campaign
-- The approval of the version the reviewer saw; the guard refuses another version, and the
-- last editor's own login.
INSERT INTO campaign_approvals (campaign_id, version, snapshot) VALUES (:campaign_id, :version, :snapshot)
RETURNING version, approved_by, approved_at;

-- name: tenant-approvals
-- Every campaign of the session's tenant (its row policy) with its version and newest approval.
SELECT a.slug AS app, c.key, v.version, v.edited_by, v.edited_at,
       p.version AS approved_version, p.approved_by, p.approved_at, p.snapshot AS approved_snapshot
FROM campaigns c
JOIN apps a ON a.id = c.app_id
JOIN campaign_versions v ON v.campaign_id = c.id
LEFT JOIN LATERAL (
    SELECT version, approved_by, approved_at, snapshot FROM campaign_approvals
    WHERE campaign_id = c.id ORDER BY version DESC, id DESC LIMIT 1
) p ON true
ORDER BY a.slug, c.key;

-- name: require-approval
UPDATE tenants SET require_approval = :required WHERE slug = :slug RETURNING id;

-- name: tenant-requires-approval
SELECT require_approval FROM tenants WHERE id = :tenant_id;
