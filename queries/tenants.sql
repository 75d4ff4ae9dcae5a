-- Tenants (TenantRepository): listing and creating them is operator work; inside a tenant
-- session a tenant sees only its own row. Each returns the tenant's id, slug, name, created_at.

-- name: insert-tenant
INSERT INTO tenants (slug, name) VALUES (:slug, :name) RETURNING id, slug, name, created_at;

-- name: insert-tenant-locks
-- A new tenant's publish and apply locks (0016, 0018), so that taking one never inserts it first.
INSERT INTO tenant_locks (tenant_id, purpose) VALUES (:tenant_id, 'publish'), (:tenant_id, 'apply') ON CONFLICT DO NOTHING;

-- name: list-tenants
SELECT id, slug, name, created_at FROM tenants ORDER BY slug;

-- name: find-tenant
SELECT id, slug, name, created_at FROM tenants WHERE slug = :slug;

-- name: rename-tenant
UPDATE tenants SET name = :name WHERE slug = :slug;
