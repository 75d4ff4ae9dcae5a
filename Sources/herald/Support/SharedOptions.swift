import ArgumentParser
import HeraldCore

/// `--tenant`, defaulting to HERALD_TENANT.
struct TenantOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Tenant slug.", discussion: "Defaults to $HERALD_TENANT."))
    var tenant: String?

    func slug() throws -> Slug {
        guard let raw = tenant ?? Environment.values["HERALD_TENANT"], !raw.isEmpty else {
            throw InputError(
                message: "no tenant given: pass --tenant SLUG or set HERALD_TENANT (`herald tenant list` shows them)",
                code: ExitStatus.usage)
        }
        return try Slug(raw)
    }
}

struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON for scripts instead of a table.")
    var json = false
}
