/// The common shape of an NDJSON event line, read in one pass: an object of the known
/// fields only, each a string without escapes (or null), printable ASCII, each field once.
/// Anything else (escapes, other keys, other values, non-ASCII text, a malformed line)
/// returns nil, and the general parser reads the line and says exactly what is wrong, so
/// every line gets the same outcome either way; this path only skips the dictionaries.
enum EventLineFastPath {
    /// The fields of `bytes`, or nil when the line is not of that shape.
    static func fields(_ bytes: ArraySlice<UInt8>) -> EventFields? {
        bytes.withUnsafeBufferPointer { fields($0) }
    }

    private static let keys: [[UInt8]] = DeliveryEvent.columns.map { Array($0.utf8) }

    private static func fields(_ b: UnsafeBufferPointer<UInt8>) -> EventFields? {
        var fields = EventFields()
        var seen = 0  // a bit per column
        var index = 0
        func skipSpace() {
            while index < b.count, b[index] == 0x20 || b[index] == 0x09 || b[index] == 0x0D || b[index] == 0x0A { index += 1 }
        }
        /// A string's contents (between the quotes), or nil when it is not a plain one.
        func plainString() -> Range<Int>? {
            guard index < b.count, b[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < b.count {
                let byte = b[end]
                if byte == UInt8(ascii: "\"") {
                    index = end + 1
                    return start..<end
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                end += 1
            }
            return nil
        }
        skipSpace()
        guard index < b.count, b[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipSpace()
            guard let key = plainString() else { return nil }
            guard let column = keys.firstIndex(where: { $0.elementsEqual(b[key]) }), seen & (1 << column) == 0 else { return nil }
            seen |= 1 << column
            skipSpace()
            guard index < b.count, b[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace()
            if index + 4 <= b.count, b[index] == UInt8(ascii: "n"), b[index + 1] == UInt8(ascii: "u"), b[index + 2] == UInt8(ascii: "l"),
                b[index + 3] == UInt8(ascii: "l")
            {
                index += 4
            } else {
                guard let value = plainString() else { return nil }
                fields[column] = String(decoding: UnsafeBufferPointer(rebasing: b[value]), as: UTF8.self)
            }
            skipSpace()
            guard index < b.count else { return nil }
            if b[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard b[index] == UInt8(ascii: "}") else { return nil }
            index += 1
            skipSpace()
            return index == b.count ? fields : nil
        }
    }
}
