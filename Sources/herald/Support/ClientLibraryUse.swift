/// Whether a command line is about to connect to PostgreSQL, judged before it is parsed: every
/// command does but `validate`, and no help, version or completion script. A wrong guess costs
/// nothing but time: libpq is then loaded for nothing, or loaded when first used.
enum ClientLibraryUse {
    static func likely(_ arguments: some Collection<String>) -> Bool {
        guard let first = arguments.first, !["validate", "help"].contains(first) else { return false }
        return !arguments.contains { builtIn.contains($0) }
    }

    /// ArgumentParser's own flags: they print and exit before any command runs.
    private static let builtIn: Set<String> = ["--version", "--help", "-h", "--generate-completion-script", "--experimental-dump-help"]
}
