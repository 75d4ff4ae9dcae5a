import Foundation
import HeraldCore
@testable import HeraldJobs
@testable import HeraldStore
import PostgresClient
import Testing

/// A whole site's board reads its tenants on two connections at once: each tenant still in a
/// transaction of its own, as itself, and the results in the order asked.
@Suite struct BoardTenantsTests {
    @Test(arguments: [1, 2, 3, 4])
    func eachTenantIsReadAsItselfAndInOrder(count: Int) throws {
        try JobFixtures.withExample { database, _ in
            let administration = TenantAdministration(database)
            var slugs: [Slug] = []
            for index in 0..<count {
                let slug = try Slug("board-\(index)")
                _ = try administration.create(slug: slug, name: "Board \(index)")
                slugs.append(slug)
            }
            let asked = Array(slugs.reversed())
            let read = try BoardData.perTenant(asked, on: database) { database, slug in
                try database.inTenant(slug, readOnly: true) { session in
                    // The backend's process id says which connection read it.
                    (session.tenant.slug, try session.connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int32.self))
                }
            }
            #expect(read.map(\.0) == asked)
            #expect(Set(read.map(\.1)).count == min(count, 2))
        }
    }
}
