import PostgresClient

/// Reads a `QueryParameters` struct's stored properties through its synthesized `Encodable`
/// conformance, in order and by name, as GRDB's RecordEncoder reads a record's columns. The
/// synthesized code hands an optional property to `encodeIfPresent`, whose standard-library
/// default leaves a nil out: every overload is implemented here, so that a nil is a NULL and
/// a property is never missed.
final class ParameterEncoder: Encoder {
    private(set) var properties: [(name: String, value: any PostgresEncodable)] = []
    /// The first property whose type is not PostgresEncodable.
    private(set) var refused: (property: String, type: String)?
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Properties(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("a statement's parameters are the properties of a struct, by name")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("a statement's parameters are the properties of a struct, by name")
    }

    fileprivate func record(_ value: (some Encodable)?, forKey key: some CodingKey) {
        guard let value else {
            properties.append((key.stringValue, String?.none))
            return
        }
        guard let parameter = value as? any PostgresEncodable else {
            if refused == nil { refused = (key.stringValue, "\(type(of: value))") }
            return
        }
        properties.append((key.stringValue, parameter))
    }
}

private struct Properties<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ParameterEncoder
    var codingPath: [any CodingKey] { [] }

    func encode<T: Encodable>(_ value: T, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeNil(forKey key: Key) { encoder.record(String?.none, forKey: key) }

    // The standard library's overloads for its own types, each with a default of its own.
    func encode(_ value: Bool, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: String, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Double, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Float, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Int, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Int8, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Int16, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Int32, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: Int64, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: UInt, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: UInt16, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: UInt32, forKey key: Key) { encoder.record(value, forKey: key) }
    func encode(_ value: UInt64, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Bool?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: String?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Double?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Float?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Int?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Int8?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Int16?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Int32?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: Int64?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: UInt?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) { encoder.record(value, forKey: key) }
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) { encoder.record(value, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("a statement's parameter is one value, not a nested container")
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("a statement's parameter is one value, not a nested container")
    }

    func superEncoder() -> any Encoder { encoder }
    func superEncoder(forKey key: Key) -> any Encoder { encoder }
}
