import Foundation
import HeraldCore
import Synchronization

/// A site compiled while its snapshot is still being read: each batch of apps given to `add`
/// is compiled on every core at once, in the background, and `finish` joins them all in the
/// order `SiteCompiler.compile` gives (tenants by slug, then their apps by slug). A publish
/// reads thousands of apps in batches, so the cores compile while the database sends the rest.
public final class SiteCompilation: Sendable {
    private let compiler: SiteCompiler
    private let at: Date
    private let running = DispatchGroup()
    private let parts = Mutex<[Part]>([])

    /// One app's files, warnings and errors, with where it goes in the site's order.
    private struct Part: Sendable {
        let tenant: Slug
        let app: Slug
        let site: CompiledSite
    }

    public init(_ compiler: SiteCompiler, at: Date) {
        self.compiler = compiler
        self.at = at
    }

    /// Starts compiling every app of `tenants` (apps not given before) and returns at once.
    public func add(_ tenants: [TenantSpec]) {
        let work = tenants.flatMap { tenant in tenant.apps.map { (app: $0, tenant: tenant) } }
        guard !work.isEmpty else { return }
        DispatchQueue.global().async(group: running) { [self] in
            // Apps compile independently: spread over the cores, each into its own slot.
            let slots = ConcurrentSlots<Part>(count: work.count)
            DispatchQueue.concurrentPerform(iterations: work.count) { index in
                var site = CompiledSite()
                compiler.compile(work[index].app, of: work[index].tenant, at: at, into: &site)
                site.files.sort { $0.path < $1.path }  // paths start tenant/app/: sorted per app is sorted overall
                slots[index] = Part(tenant: work[index].tenant.slug, app: work[index].app.slug, site: site)
            }
            let done = slots.values
            parts.withLock { $0 += done }
        }
    }

    /// Waits for every batch, then joins the apps' files, warnings and errors in site order.
    public func finish() -> CompiledSite {
        running.wait()
        let ordered = parts.withLock { $0 }.sorted { ($0.tenant, $0.app) < ($1.tenant, $1.app) }
        var site = CompiledSite()
        site.files.reserveCapacity(ordered.reduce(0) { $0 + $1.site.files.count })
        for part in ordered {
            site.files += part.site.files
            site.warnings += part.site.warnings
            site.errors += part.site.errors
        }
        return site
    }
}
