-- Tenants (TenantRepository): listing and creating them is operator work; inside a tenant
-- session a tenant sees only its own row. Each returns the tenant's id, slug, name, created_at.

-- name: insert-tenant
INSERT INTO tenants (slug, name) VALUES (:slug, :name) RETURNING id, slug, name, created_at;

-- name: list-tenants
SELECT id, slug, name, created_at FROM tenants ORDER BY slug;

-- name: find-tenant
SELECT id, slug, name, created_at FROM tenants WHERE slug = :slug;

-- name: rename-tenant
UPDATE tenants SET name = :name WHERE slug = :slug;
