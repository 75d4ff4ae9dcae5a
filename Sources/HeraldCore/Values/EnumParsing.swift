/// Parses a raw value of a String enum with a message listing the choices.
func parseEnum<E: RawRepresentable & CaseIterable>(_ raw: String, _ what: String, as type: E.Type = E.self)
    throws(ValidationError) -> E where E.RawValue == String
{
    guard let value = E(rawValue: raw) else {
        throw ValidationError(
            message: "unknown \(what) \(quote(raw)): use one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return value
}
