import HeraldCore

/// JSON as the clients read it, written the same way every time: keys sorted, two-space
/// indentation, integers without a fraction, other numbers in their shortest exact form,
/// UTF-8 text with only the escapes JSON requires. Not `indirect`: it nests through arrays and
/// dictionaries, which are references already, so no value needs a box of its own (a publish
/// builds hundreds of thousands of them).
public enum JSONValue: Sendable {
    case object([String: JSONValue])
    /// An object whose keys are distinct by construction (a file's fixed fields): written as
    /// `object` is, sorted by key, without a dictionary made and hashed for it.
    case fields([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)

    /// The UTF-8 bytes, built in one buffer (tens of thousands of files per publish).
    public func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func appendIndent(_ depth: Int, to out: inout [UInt8]) {
        for _ in 0..<depth {
            out.append(UInt8(ascii: " "))
            out.append(UInt8(ascii: " "))
        }
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .object(let members):
            guard !members.isEmpty else {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return
            }
            out.append(UInt8(ascii: "{"))
            out.append(UInt8(ascii: "\n"))
            // The members' positions, sorted by key, on the stack: no array of copied pairs per object.
            withUnsafeTemporaryAllocation(of: Dictionary<String, JSONValue>.Index.self, capacity: members.count) { buffer in
                var order = buffer
                var filled = 0
                for index in members.indices {
                    order.initializeElement(at: filled, to: index)
                    filled += 1
                }
                order.sort { members[$0].key < members[$1].key }
                for (position, index) in order.enumerated() {
                    let (key, value) = members[index]
                    Self.appendIndent(indent + 1, to: &out)
                    JSONText.appendQuoted(key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    out.append(UInt8(ascii: " "))
                    value.write(to: &out, indent: indent + 1)
                    if position < filled - 1 { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "\n"))
                }
                _ = order.deinitialize()
            }
            Self.appendIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        case .fields(let members):
            guard !members.isEmpty else {
                out.append(UInt8(ascii: "{"))
                out.append(UInt8(ascii: "}"))
                return
            }
            out.append(UInt8(ascii: "{"))
            out.append(UInt8(ascii: "\n"))
            withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { buffer in
                var order = buffer
                for index in members.indices { order.initializeElement(at: index, to: index) }
                order.sort { members[$0].0 < members[$1].0 }
                for (position, index) in order.enumerated() {
                    Self.appendIndent(indent + 1, to: &out)
                    JSONText.appendQuoted(members[index].0, to: &out)
                    out.append(UInt8(ascii: ":"))
                    out.append(UInt8(ascii: " "))
                    members[index].1.write(to: &out, indent: indent + 1)
                    if position < members.count - 1 { out.append(UInt8(ascii: ",")) }
                    out.append(UInt8(ascii: "\n"))
                }
            }
            Self.appendIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            guard !items.isEmpty else {
                out.append(UInt8(ascii: "["))
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            out.append(UInt8(ascii: "\n"))
            for (index, item) in items.enumerated() {
                Self.appendIndent(indent + 1, to: &out)
                item.write(to: &out, indent: indent + 1)
                if index < items.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            Self.appendIndent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .string(let text): JSONText.appendQuoted(text, to: &out)
        case .integer(let value): out += String(value).utf8
        case .number(let value): out += NumberText.format(value).utf8
        case .bool(let value): out += (value ? "true" : "false").utf8
        }
    }
}
