import PostgresClient

/// The parameters of a statement of `queries/*.sql` as a struct: each stored property is the
/// parameter of the same name in snake case (`tenantIDs` is `:tenant_ids`), so a call site
/// names every value it passes and the SQL says where each one goes (`CompiledQuery` numbers
/// them). Every property must be a parameter of the statement and every parameter a property,
/// checked at each run: a misspelt or forgotten one is an error, never a NULL in its place.
///
/// The properties are read through the struct's synthesized `Encodable` conformance, as GRDB
/// reads a record's columns (`ParameterEncoder`); each must be `PostgresEncodable` (`String`,
/// `Int64`, `Date`, an array of them, an optional of one: nil is NULL).
protocol QueryParameters: Encodable {}

/// One statement's parameters, naming their statement: `try connection.query(FindTenant(slug: "acme"))`.
protocol Statement: QueryParameters {
    static var query: Query { get }
}

/// A parameter's text made once, for a value several statements send (a publish's every app id).
struct EncodedParameter: PostgresEncodable, Encodable, Sendable {
    let postgresText: String?

    init(_ value: some PostgresEncodable) {
        postgresText = value.postgresText
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(postgresText)
    }
}

extension QueryParameters {
    /// The values for `compiled`'s `$1…$n`, in order.
    func values(for compiled: CompiledQuery, of query: Query) throws -> [any PostgresEncodable] {
        let encoder = ParameterEncoder()
        try encode(to: encoder)
        if let refused = encoder.refused {
            throw CompiledQuery.mistake(
                query.rawValue, "cannot take \(Self.self).\(refused.property): a \(refused.type) is not PostgresEncodable")
        }
        let names = encoder.properties.map { Self.parameterName($0.name) }
        let values = compiled.parameters.compactMap { parameter in names.firstIndex(of: parameter).map { encoder.properties[$0].value } }
        guard values.count == compiled.parameters.count, names.allSatisfy(compiled.parameters.contains) else {
            let wanted = compiled.parameters.isEmpty ? "no parameters" : compiled.parameters.map { ":" + $0 }.joined(separator: ", ")
            let given = names.isEmpty ? "none" : names.sorted().map { ":" + $0 }.joined(separator: ", ")
            throw CompiledQuery.mistake(query.rawValue, "takes \(wanted); \(Self.self) gives \(given)")
        }
        return values
    }

    /// A property's name as a parameter's: an underscore before each capital that follows a
    /// lowercase letter or a digit, then all lowercase (`appIDs` → `app_ids`, `baseURL` → `base_url`).
    static func parameterName(_ property: String) -> String {
        var name: [UInt8] = []
        name.reserveCapacity(property.utf8.count + 4)
        var previous: UInt8 = 0
        for byte in property.utf8 {
            let capital = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            if capital, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(previous) || SQLText.isDigit(previous) {
                name.append(UInt8(ascii: "_"))
            }
            name.append(capital ? byte - UInt8(ascii: "A") + UInt8(ascii: "a") : byte)
            previous = byte
        }
        return String(decoding: name, as: UTF8.self)
    }
}

/// A statement that takes no parameters.
private struct NoParameters: QueryParameters {}

extension Connection {
    /// Runs `statement`'s query with its properties as the parameters and returns the rows.
    @discardableResult
    func query(_ statement: some Statement) throws -> QueryResult {
        try query(type(of: statement).query, statement)
    }

    /// Runs `statement`'s query and returns the number of rows it affected.
    @discardableResult
    func execute(_ statement: some Statement) throws -> Int {
        try query(statement).rowsAffected
    }

    /// Sends `statement` with the next statement this connection runs, in its round trip
    /// (`Connection.sendWithNext`); `failure` says how its error is told.
    func sendWithNext(_ statement: some Statement, failure: @escaping (PostgresError) -> any Error = { $0 }) throws {
        let (sql, values) = try Self.bound(type(of: statement).query, statement)
        sendWithNext(sql, values, failure: failure)
    }

    /// Runs `query` with `parameters`, for statements that share one struct (the loader's five).
    @discardableResult
    func query(_ query: Query, _ parameters: some QueryParameters) throws -> QueryResult {
        let (sql, values) = try Self.bound(query, parameters)
        return try self.query(sql, values)
    }

    /// `query` as it is sent, with `parameters`' values in the order of its `$1…$n`.
    private static func bound(_ query: Query, _ parameters: some QueryParameters) throws -> (SQL, [any PostgresEncodable]) {
        let compiled = try query.compiled
        return (compiled.sql, try parameters.values(for: compiled, of: query))
    }

    /// Runs `query` with `parameters` and returns the number of rows it affected.
    @discardableResult
    func execute(_ query: Query, _ parameters: some QueryParameters) throws -> Int {
        try self.query(query, parameters).rowsAffected
    }

    /// Runs `query`, which takes no parameters, and returns its rows.
    @discardableResult
    func query(_ query: Query) throws -> QueryResult {
        try self.query(query, NoParameters())
    }

    /// Runs `query`, which takes no parameters, and returns the number of rows it affected.
    @discardableResult
    func execute(_ query: Query) throws -> Int {
        try self.query(query, NoParameters()).rowsAffected
    }
}
