import HeraldCore

/// JSON as the clients read it, written the same way every time: keys sorted, two-space
/// indentation, integers without a fraction, other numbers in their shortest exact form,
/// UTF-8 text with only the escapes JSON requires.
public indirect enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)

    public func serialized() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            let sorted = members.sorted { $0.key < $1.key }
            for (index, (key, value)) in sorted.enumerated() {
                out += String(repeating: "  ", count: indent + 1) + JSONText.quoted(key) + ": "
                value.write(to: &out, indent: indent + 1)
                out += index == sorted.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                item.write(to: &out, indent: indent + 1)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .string(let text): out += JSONText.quoted(text)
        case .integer(let value): out += String(value)
        case .number(let value): out += NumberText.format(value)
        case .bool(let value): out += value ? "true" : "false"
        }
    }
}
