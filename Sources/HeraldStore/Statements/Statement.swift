import PostgresClient

/// The parameters of a statement of `queries/*.sql` as a struct: each stored property is the
/// parameter of the same name in snake case (`tenantIDs` is `:tenant_ids`), so a call site
/// names every value it passes and the SQL says where each one goes (`CompiledQuery` numbers
/// them). Every property must be a parameter of the statement and every parameter a property,
/// checked at each run: a misspelt or forgotten one is an error, never a NULL in its place.
///
/// The properties are read with `Mirror`, which sees every stored property, nil ones
/// included (an Encodable's synthesized encoding leaves nil optionals out), whatever their
/// type: a `PostgresEncodable` value (`String`, `Int64`, `Date`, an array of them, …).
protocol QueryParameters {}

/// One statement's parameters, naming their statement: `try connection.query(FindTenant(slug: "acme"))`.
protocol Statement: QueryParameters {
    static var query: Query { get }
}

/// A parameter's text made once, for a value several statements send (a publish's every app id).
struct EncodedParameter: PostgresEncodable, Sendable {
    let postgresText: String?

    init(_ value: some PostgresEncodable) {
        postgresText = value.postgresText
    }
}

extension QueryParameters {
    /// The values for `compiled`'s `$1…$n`, in order.
    func values(for compiled: CompiledQuery, of query: Query) throws -> [any PostgresEncodable] {
        var byName: [String: any PostgresEncodable] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label else { continue }
            guard let value = child.value as? any PostgresEncodable else {
                throw CompiledQuery.mistake(
                    query.rawValue, "cannot take \(Self.self).\(label): a \(type(of: child.value)) is not PostgresEncodable")
            }
            byName[Self.parameterName(label)] = value
        }
        let values = compiled.parameters.compactMap { byName[$0] }
        let extra = byName.keys.filter { !compiled.parameters.contains($0) }
        guard values.count == compiled.parameters.count, extra.isEmpty else {
            let wanted = compiled.parameters.isEmpty ? "no parameters" : compiled.parameters.map { ":" + $0 }.joined(separator: ", ")
            let given = byName.isEmpty ? "none" : byName.keys.sorted().map { ":" + $0 }.joined(separator: ", ")
            throw CompiledQuery.mistake(query.rawValue, "takes \(wanted); \(Self.self) gives \(given)")
        }
        return values
    }

    /// A property's name as a parameter's: an underscore before each capital that follows a
    /// lowercase letter or a digit, then all lowercase (`appIDs` → `app_ids`, `baseURL` → `base_url`).
    static func parameterName(_ property: String) -> String {
        var name = ""
        var previous: Character?
        for character in property {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber { name.append("_") }
            name += character.lowercased()
            previous = character
        }
        return name
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

    /// Runs `query` with `parameters`, for statements that share one struct (the loader's five).
    @discardableResult
    func query(_ query: Query, _ parameters: some QueryParameters) throws -> QueryResult {
        let compiled = try query.compiled
        return try self.query(compiled.sql, try parameters.values(for: compiled, of: query))
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
