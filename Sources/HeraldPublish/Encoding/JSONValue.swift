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

    /// An object's members at `positions`, sorted by key. The positions are sorted on the
    /// stack: no array of copied pairs per object.
    private static func writeObject<Positions: Collection>(
        _ positions: Positions, count: Int, key: (Positions.Element) -> String, value: (Positions.Element) -> JSONValue,
        to out: inout [UInt8], indent: Int
    ) {
        guard count > 0 else {
            out.append(UInt8(ascii: "{"))
            out.append(UInt8(ascii: "}"))
            return
        }
        out.append(UInt8(ascii: "{"))
        out.append(UInt8(ascii: "\n"))
        withUnsafeTemporaryAllocation(of: Positions.Element.self, capacity: count) { buffer in
            var order = buffer
            var filled = 0
            for position in positions where filled < count {
                order.initializeElement(at: filled, to: position)
                filled += 1
            }
            order = UnsafeMutableBufferPointer(rebasing: order[..<filled])
            order.sort { key($0) < key($1) }
            for (index, position) in order.enumerated() {
                appendIndent(indent + 1, to: &out)
                JSONText.appendQuoted(key(position), to: &out)
                out.append(UInt8(ascii: ":"))
                out.append(UInt8(ascii: " "))
                value(position).write(to: &out, indent: indent + 1)
                if index < filled - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
            }
            _ = order.deinitialize()
        }
        appendIndent(indent, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .object(let members):
            Self.writeObject(members.indices, count: members.count, key: { members[$0].key }, value: { members[$0].value }, to: &out, indent: indent)
        case .fields(let members):
            Self.writeObject(members.indices, count: members.count, key: { members[$0].0 }, value: { members[$0].1 }, to: &out, indent: indent)
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
