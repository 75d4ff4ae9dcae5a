import Foundation
import Yams

/// Collects problems while a file is read, so all of them are reported at once.
final class ProblemLog {
    private(set) var problems: [ValidationError] = []
    /// Keys given twice, renamed so that the file could be read (`CampaignsFileSource`).
    let repeatedKeys: [Int: String]

    /// Where scalars start with U+FEFF that Yams dropped (nil: none can).
    let byteOrderMarks: ByteOrderMarks?

    init(repeatedKeys: [Int: String] = [:], byteOrderMarks: ByteOrderMarks? = nil) {
        self.repeatedKeys = repeatedKeys
        self.byteOrderMarks = byteOrderMarks
    }

    /// The key a renamed repeated key stands for, if `key` is one.
    func repeatedKey(_ key: String) -> String? {
        repeatedKeys.isEmpty ? nil : CampaignsFileSource.repeatedKey(key, in: repeatedKeys)
    }

    func add(_ path: String, _ message: String, _ node: Node?) {
        let line = node?.mark.map { " (line \($0.line))" } ?? ""
        problems.append(ValidationError(path: path, message: message + line))
    }

    func add(_ path: String, _ error: ValidationError, _ node: Node?) {
        add(error.path.map { "\(path).\($0)" } ?? path, error.message, node)
    }
}

/// A node of the parsed file at a known path, with typed readers that log what is wrong
/// and return nil instead of stopping.
struct NodeReader {
    let node: Node
    let path: String
    let log: ProblemLog

    func child(_ node: Node, _ component: String) -> NodeReader {
        let component = Excerpt.plain(component)
        return NodeReader(node: node, path: path.isEmpty ? component : "\(path).\(component)", log: log)
    }

    /// The mapping's fields, after checking for unknown, repeated and missing keys.
    func fields(allowed: [String], required: [String], what: String) -> Fields? {
        guard case .mapping(let mapping) = node else {
            log.add(path, "expected a mapping (\(what)), found \(describe(node))", node)
            return nil
        }
        var values: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else {
                log.add(path, "keys must be plain names", keyNode)
                continue
            }
            if let repeated = log.repeatedKey(key) {
                log.add(path, "\(repeated) is given twice; give each key once", keyNode)
                continue
            }
            if values[key] != nil {
                log.add(path, "\(key) is given twice", keyNode)
            } else if !allowed.contains(key) {
                log.add(path, "unknown key \(quote(key)) in \(what); allowed: \(allowed.joined(separator: ", "))", keyNode)
            }
            values[key] = value
        }
        for key in required where values[key] == nil {
            log.add(path, "\(what) is missing \(key)", node)
        }
        return Fields(values: values, reader: self)
    }

    func list() -> [NodeReader]? {
        guard case .sequence(let sequence) = node else {
            log.add(path, "expected a list, found \(describe(node))", node)
            return nil
        }
        return sequence.enumerated().map { index, item in
            NodeReader(node: item, path: "\(path)[\(index)]", log: log)
        }
    }

    /// A mapping read as ordered (key, reader) pairs, keys as written.
    func entries(what: String) -> [(String, NodeReader)]? {
        guard case .mapping(let mapping) = node else {
            log.add(path, "expected a mapping (\(what)), found \(describe(node))", node)
            return nil
        }
        var seen: Set<String> = []
        var result: [(String, NodeReader)] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { continue }
            if let repeated = log.repeatedKey(key) {
                log.add(path, "\(repeated) is given twice; give each key once", keyNode)
                continue
            }
            guard seen.insert(key).inserted else {
                log.add(path, "\(key) is given twice", keyNode)
                continue
            }
            result.append((key, child(value, key)))
        }
        return result
    }

    var scalarText: String? {
        guard case .scalar(let scalar) = node else {
            log.add(path, "expected a single value, found \(describe(node))", node)
            return nil
        }
        let text = log.byteOrderMarks?.restore(scalar) ?? scalar.string
        // PostgreSQL text cannot hold NUL: it would be cut there, silently.
        if let offset = text.unicodeScalars.firstIndex(of: "\u{0}") {
            let position = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: offset) + 1
            log.add(path, "contains a NUL character (U+0000) at character \(position), which no text field can hold: remove it", node)
            return nil
        }
        return text
    }

    /// Runs a validating initializer on the scalar, logging its message at this path.
    func value<T>(_ make: (String) throws -> T) -> T? {
        guard let text = scalarText else { return nil }
        do {
            return try make(text)
        } catch let error as ValidationError {
            log.add(path, error.message, node)
        } catch {
            log.add(path, "\(error)", node)
        }
        return nil
    }

    var string: String? { scalarText }

    var int: Int? {
        value { text in
            guard let number = Int(text) else { throw ValidationError(message: "expected a whole number, found \(quote(text))") }
            return number
        }
    }

    var double: Double? {
        value { text in
            guard let number = Double(text), number.isFinite else {
                throw ValidationError(message: "expected a number, found \(quote(text))")
            }
            return number
        }
    }

    var date: Date? {
        value { text in try Timestamp.parse(text, field: "time") }
    }

    private func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar): "the value \(quote(scalar.string))"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}

/// The fields of one mapping.
struct Fields {
    let values: [String: Node]
    let reader: NodeReader

    func has(_ key: String) -> Bool { values[key] != nil }

    subscript(_ key: String) -> NodeReader? {
        values[key].map { reader.child($0, key) }
    }
}
