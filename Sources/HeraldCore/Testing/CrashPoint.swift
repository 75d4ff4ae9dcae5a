import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test hook — the only one in HeraldCore, and its only reach outside pure values: it
/// reads one environment variable and can kill the process. With
/// `HERALD_TEST_CRASH_AT=<phase>` (or `<phase>:<n>`, the n-th time any thread reaches it) the
/// process sends itself SIGKILL at that point, as a `kill -9` landing at that instant would;
/// tests run the real binary stopped at each named phase and check what it left behind.
/// Without the variable, `reached` costs a load and a compare.
///
/// The phases are not listed here: each module declares those it reaches (`Phase`), named
/// `<area>.<phase>` (`site.marker`, `apply.written`).
public enum CrashPoint {
    /// The phases one area of a module can be stopped at, in the order a run reaches them.
    public protocol Phase: RawRepresentable<String>, CaseIterable, Sendable {}

    /// The environment variable that arms a crash point.
    public static let variable = "HERALD_TEST_CRASH_AT"

    /// Stops the process here if the environment names `phase` and this is its n-th arrival.
    public static func reached<P: Phase>(_ phase: P) {
        guard let armed else { return }
        guard armed.name == phase.rawValue else {
            refuseIfUnknown(armed, among: P.allCases.map(\.rawValue))
            return
        }
        if armed.arrivals.wrappingAdd(1, ordering: .relaxed).newValue == armed.nth {
            kill(getpid(), SIGKILL)
            _exit(137)  // not reached: SIGKILL cannot be caught
        }
    }

    /// A misspelt phase must not pass for "never reached": a name in the area of `known` (its
    /// text before the first dot) that is none of them is refused loudly.
    private static func refuseIfUnknown(_ armed: Armed, among known: [String]) {
        let area = armed.name.prefix { $0 != "." }
        guard known.contains(where: { $0.prefix { $0 != "." } == area }), !known.contains(armed.name) else { return }
        refuse("names no crash point: " + known.joined(separator: ", ") + " (then :N for the n-th time)")
    }

    private static func refuse(_ why: String) -> Never {
        let value = getenv(variable).map { String(cString: $0) } ?? ""
        let message = "herald: \(variable)=\(value) \(why)\n"
        _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(70)
    }

    /// The point the environment names, read once.
    private static let armed: Armed? = {
        guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1)
        guard let nth = parts.count == 2 ? Int(parts[1]) : 1, nth >= 1, parts[0].contains(".") else {
            refuse("names no crash point: give <area>.<phase>, then :N for the n-th time")
        }
        return Armed(name: String(parts[0]), nth: nth)
    }()

    private final class Armed: Sendable {
        let name: String
        let nth: Int
        let arrivals = Atomic<Int>(0)

        init(name: String, nth: Int) {
            self.name = name
            self.nth = nth
        }
    }
}
