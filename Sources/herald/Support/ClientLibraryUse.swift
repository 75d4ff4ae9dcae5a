/// Whether a command line is about to connect to PostgreSQL, judged before it is parsed: every
/// command does but `validate`, and no help, version or completion script. A wrong guess costs
/// nothing but time: libpq is then loaded for nothing, or loaded when first used.
///
/// Plain comparisons of strings, no Set: it runs first thing in `main`, and a Set's first use
/// had the runtime look through every protocol conformance in the binary before the loading
/// could start.
enum ClientLibraryUse {
    static func likely(_ arguments: some Collection<String>) -> Bool {
        guard let first = arguments.first, first != "validate", first != "help" else { return false }
        for argument in arguments where builtIn.contains(where: { $0 == argument }) { return false }
        return true
    }

    /// ArgumentParser's own flags: they print and exit before any command runs.
    private static let builtIn = ["--version", "--help", "-h", "--generate-completion-script", "--experimental-dump-help"]
}
