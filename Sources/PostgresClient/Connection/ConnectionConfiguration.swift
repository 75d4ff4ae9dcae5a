import CLibPQ
import Foundation

/// Where to connect: a `postgresql://` URL or a `key=value` conninfo string, as libpq reads them.
public struct ConnectionConfiguration: Sendable, Equatable {
    /// A URL or key=value string; "" means libpq's own defaults (PGHOST, PGDATABASE, ...).
    public var conninfo: String

    public init(conninfo: String) {
        self.conninfo = conninfo
    }

    /// Builds a key=value conninfo, quoting every value (libpq's rules: `'…'`, with `\'` and `\\`).
    public init(keywords: [String: String]) {
        conninfo = keywords.sorted { $0.key < $1.key }.map { key, value in
            // Escaped by hand: Foundation's replacingOccurrences, the first use of its string
            // machinery, cost about 0.3 ms of every command that opens the local database.
            var quoted = "\(key)='"
            for character in value {
                if character == "\\" || character == "'" { quoted.append("\\") }
                quoted.append(character)
            }
            return quoted + "'"
        }
        .joined(separator: " ")
    }

    /// The caller's own variable `urlVariable` (a URL or conninfo) when set; else libpq's own
    /// variables when any names a server or database; else nil: nothing is configured.
    public static func fromEnvironment(_ environment: [String: String], urlVariable: String? = nil) -> ConnectionConfiguration? {
        if let urlVariable, let url = environment[urlVariable], !url.isEmpty {
            return ConnectionConfiguration(conninfo: url)
        }
        let libpqVariables = ["PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE"]
        if libpqVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) {
            return ConnectionConfiguration(conninfo: "")
        }
        return nil
    }

    /// host, port, database and user as libpq will use them; never the password.
    /// The password the conninfo carries, if any (never printed: used to mask it in messages).
    var password: String? { parsedOptions()["password"].flatMap { $0.isEmpty ? nil : $0 } }

    public var redactedDescription: String {
        var options = parsedOptions()
        let wanted = ["host", "hostaddr", "port", "dbname", "user"]
        var parts: [String] = []
        for key in wanted {
            if let value = options.removeValue(forKey: key), !value.isEmpty {
                parts.append("\(key)=\(value)")
            }
        }
        return parts.isEmpty ? "libpq defaults" : parts.joined(separator: " ")
    }

    /// The conninfo's options merged over libpq's defaults (environment included).
    private func parsedOptions() -> [String: String] {
        var result: [String: String] = [:]
        if let defaults = PQconndefaults() {
            collect(defaults, into: &result)
            PQconninfoFree(defaults)
        }
        var errorMessage: UnsafeMutablePointer<CChar>?
        if let parsed = PQconninfoParse(conninfo, &errorMessage) {
            collect(parsed, into: &result)
            PQconninfoFree(parsed)
        }
        if let errorMessage { PQfreemem(errorMessage) }
        result.removeValue(forKey: "password")
        return result
    }

    private func collect(_ options: UnsafeMutablePointer<PQconninfoOption>, into result: inout [String: String]) {
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                result[String(cString: keyword)] = String(cString: value)
            }
            option += 1
        }
    }
}
