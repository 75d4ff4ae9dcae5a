/// An event's id: a UUID written 8-4-4-4-12 hex digits (either case) with dashes, read once
/// into its 128 bits. The pattern is what PostgreSQL's uuid input takes too (Foundation's
/// `UUID(uuidString:)` also took "-f1c2a4e-…", which PostgreSQL refuses); the bits are
/// cheap to hash for the in-batch duplicate check and are what binary COPY sends.
public struct EventID: Hashable, Sendable, CustomStringConvertible {
    /// The first 64 bits, most significant first.
    public let high: UInt64
    /// The last 64 bits.
    public let low: UInt64

    public init?(_ text: String) {
        var text = text
        guard let bits = text.withUTF8({ Self.bits($0) }) else { return nil }
        (high, low) = bits
    }

    private static func bits(_ b: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard b.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var digits = 0
        for (index, byte) in b.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if digits < 16 {
                high = high << 4 | UInt64(nibble)
            } else {
                low = low << 4 | UInt64(nibble)
            }
            digits += 1
        }
        return (high, low)
    }

    /// Lowercase, 8-4-4-4-12.
    public var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (half, value) in [high, low].enumerated() {
            for nibble in 0..<16 {
                let position = half * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 { text.append(UInt8(ascii: "-")) }
                text.append(hex[Int(value >> (60 - 4 * UInt64(nibble)) & 0xF)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
