/// A value that is a validated string (slug, locale tag, version): it codes as that string
/// and validates again when decoded.
public protocol ValidatedString: Codable {
    var rawValue: String { get }
    init(_ raw: String) throws(ValidationError)
}

extension ValidatedString {
    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
