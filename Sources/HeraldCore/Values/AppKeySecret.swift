/// An app key as a device presents it (`Authorization: Bearer hrk_…`): `hrk_` and 43
/// base64url characters, 256 random bits. Herald stores only its SHA-256 (`digest`) and its
/// first characters (`hint`), so a key is shown once, when it is made.
public struct AppKeySecret: Sendable, Equatable {
    public static let prefix = "hrk_"
    public let text: String

    /// A new key from the system's secure random source.
    public static func generate() -> AppKeySecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return AppKeySecret(trusted: prefix + base64URL(bytes))
    }

    private init(trusted text: String) {
        self.text = text
    }

    /// The key a request presented, when it has the shape of one (anything else cannot match
    /// a stored hash, and is not hashed at all).
    public init?(presented text: some StringProtocol) {
        guard text.utf8.count == Self.prefix.utf8.count + 43, text.hasPrefix(Self.prefix),
            text.utf8.dropFirst(Self.prefix.utf8.count).allSatisfy(Self.isBase64URL)
        else { return nil }
        self.text = String(text)
    }

    /// SHA-256 of the key's text, as 64 hex digits: what `app_keys.key_hash` holds (as bytes).
    public var digest: String { SHA256.hex(Array(text.utf8)) }

    /// The first characters, shown in listings so that a person can tell keys apart.
    public var hint: String { String(text.prefix(Self.prefix.count + 6)) }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for byte in chunk { value = value << 8 | UInt32(byte) }
            value <<= UInt32(8 * (3 - chunk.count))
            for position in 0..<(chunk.count + 1) {
                out.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
